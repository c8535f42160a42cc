"""``python -m lengen_utils.lab.zoo list | train | import | verify [--all] | table | migrate [--half | --ids] |
retire``: the zoo's command line.

Names, flags, ``$LENGEN_THREADS``, the manifest's shape and the assets folder are checked before
anything trains; a refusal is one line on stderr with exit status 2. A failure afterwards (a
mismatch in ``verify``, a damaged checkpoint) exits with 1, Ctrl-C with 130, leaving the assets and
the manifest as they were.
"""
from __future__ import annotations

import json

import torch

from ...core.checkpoint import CheckpointError
from ..cli import (INTERRUPTED, RUN_ERROR, USAGE_ERROR, OneLineParser, UsageError, fail, fraction,
                   positive_number, threads_from_env)
from .aliases import ALIASES, resolve
from .builder import build, check_buildable, verify
from .importing import IMPORTED, RECORDED, REPAIRED, import_entry_status
from .catalog import catalog, entry
from ..experiment.entry import ZooError
from .manifest import assets_dir, file_matches, read_manifest
from .migrate import half_entry, migrate_entry, outdated, rename_ids
from .records import read_retired, retire
from .registry import unknown_entries_message
from .report import markdown_table, update_readme
from .store import entry_record, manifest_record, recover

PROG = "python -m lengen_utils.lab.zoo"


def build_parser() -> OneLineParser:
    parser = OneLineParser(prog=PROG, description="The model zoo: named, reproducible training runs "
                                                  "cached in assets/ (set LENGEN_ASSETS to use another folder).")
    sub = parser.add_subparsers(dest="cmd", required=True, parser_class=OneLineParser)
    sub.add_parser("list", help="entries and whether they are built")
    p_train = sub.add_parser("train", help="train, evaluate, save and record entries")
    p_train.add_argument("names", nargs="*", metavar="NAME")
    p_train.add_argument("--all", action="store_true", help="every entry of the catalog")
    p_train.add_argument("--tag", help="every entry with this tag (e.g. nb03, flagship)")
    p_train.add_argument("--device", choices=("cpu", "cuda"), default=None,
                         help="where to train (default: cuda for the paper-scale entries, tag gpu; else cpu)")
    p_train.add_argument("--max-seconds", type=positive_number, default=None, metavar="S",
                         help="stop each training after about S seconds (recorded as stopped early)")
    p_train.add_argument("--replace", action="store_true",
                         help="retrain entries that are already built (their checkpoint and record are replaced)")
    p_import = sub.add_parser("import", help="add entries built elsewhere (e.g. on a GPU) to assets/, checked first")
    p_import.add_argument("source", metavar="SOURCE", help="the folder the build wrote (LENGEN_ASSETS or flat files)")
    p_import.add_argument("names", nargs="+", metavar="NAME")
    p_import.add_argument("--replace", action="store_true",
                          help="replace an entry that assets/ holds as another build (refused without it)")
    p_verify = sub.add_parser("verify", help="retrain an entry and compare with the manifest")
    p_verify.add_argument("names", nargs="*", metavar="NAME")
    p_verify.add_argument("--all", action="store_true",
                          help="every built entry (a GPU entry on a machine without CUDA is listed as skipped)")
    p_verify.add_argument("--tolerance", type=fraction, default=0.05,
                          help="largest EM difference allowed after retraining (0..1, default 0.05)")
    p_verify.add_argument("--no-retrain", action="store_true", help="only re-measure the cached checkpoint")
    p_table = sub.add_parser("table", help="a Markdown table of entries, from the manifest")
    p_table.add_argument("names", nargs="*", metavar="NAME")
    p_table.add_argument("--readme", metavar="FILE", help="rewrite the <!-- zoo-table --> blocks of FILE instead")
    p_migrate = sub.add_parser("migrate", help="rewrite format-1 checkpoints in the current format and re-measure them")
    p_migrate.add_argument("names", nargs="*", metavar="NAME", help="entries (default: every outdated one)")
    p_migrate.add_argument("--half", action="store_true",
                           help="store the named entries in float16 instead and re-measure their metrics")
    p_migrate.add_argument("--ids", action="store_true",
                           help="give the entries whose ids 0.3 shortened their new names (files and records)")
    p_retire = sub.add_parser("retire", help="take built entries' weights out of assets/ (their records move to "
                                             "assets/retired.json; `train` builds them again)")
    p_retire.add_argument("names", nargs="+", metavar="NAME")
    return parser


def _known(names: list[str]) -> list[str]:
    """``names`` with each alias read as its entry; an unknown name raises :class:`UsageError`."""
    unknown = [n for n in names if resolve(n) not in catalog()]
    if unknown:
        raise UsageError(unknown_entries_message(unknown))
    return names


def _not_replacing(names: list[str], named: set[str]) -> list[str]:
    """Retraining replaces a stored checkpoint and its record: an entry named on the command line that is built
    and intact is refused (with what it holds); one that ``--tag`` or ``--all`` brought in is skipped, with a line."""
    manifest = read_manifest()
    stored = [n for n in names if file_matches(assets_dir(), manifest.get(resolve(n)))]   # damaged: rebuilt
    refused = [n for n in stored if resolve(n) in named]
    if refused:
        rec = manifest[resolve(refused[0])]
        em = ", ".join(f"{k}: {v:.3f}" for k, v in list(rec["metrics"]["em"].items())[:3])
        raise UsageError(f"{', '.join(refused)} {'is' if len(refused) == 1 else 'are'} already built ({refused[0]}: "
                         f"sha256 {rec['sha256'][:12]}, EM {em}); retraining replaces the stored checkpoint and "
                         f"record: add --replace to retrain, or check it with `{PROG} verify --no-retrain NAME`")
    for name in stored:
        print(f"{name}: already built, skipped (--replace retrains it)")
    return [n for n in names if n not in stored]


def _train_names(args) -> list[str]:
    names = sorted(catalog()) if args.all else _known(list(args.names))
    if args.tag:
        tagged = [n for n, e in sorted(catalog().items()) if args.tag in e.tags]
        if not tagged:
            tags = sorted({t for e in catalog().values() for t in e.tags})
            raise UsageError(f"no entry has the tag {args.tag!r}; tags: {', '.join(tags)}")
        names += [n for n in tagged if n not in names]
    if not names:
        raise UsageError("name an entry, or use --all / --tag (see `python -m lengen_utils.lab.zoo list`)")
    return names


def _preflight(args) -> list[str]:
    """Everything checked before training; raises UsageError (or ZooError) with one sentence."""
    threads_from_env()
    recover(assets_dir())                 # finish or undo a write that a crash interrupted (one line each)
    if args.cmd == "list":
        return []
    if args.cmd == "migrate":
        if args.ids and (args.half or args.names):
            raise UsageError("migrate --ids renames every renamed entry of the assets folder; give it no names "
                             "and not --half")
        if args.ids:
            return []
        if args.half and not args.names:
            raise UsageError("migrate --half converts the entries it is given; name them")
        names = _known(list(args.names)) if args.names else outdated()
        for name in names:
            manifest_record(name)
        return names
    if args.cmd == "table":
        if not args.names and not args.readme:
            raise UsageError("name entries to tabulate, or give --readme FILE")
        names = _known(list(args.names))
        for name in names:
            entry_record(name)
        return names
    if args.cmd == "import":
        return _known(list(args.names))
    if args.cmd == "train":
        names = _train_names(args)
        for name in names:
            check_buildable(name, device=args.device)
        return names if args.replace else _not_replacing(names, named=set(map(resolve, args.names)))
    if args.cmd == "verify":
        if args.all and args.names:
            raise UsageError("verify --all checks every built entry; give it no names")
        if args.all:
            return sorted(read_manifest())
        if not args.names:
            raise UsageError("name the entries to verify, or use --all (every built entry)")
    names = _known(list(args.names))
    for name in names:
        manifest_record(name)
    return names


def _verify(names: list[str], args) -> None:
    """Verify ``names``; with ``--all``, a GPU entry on a machine without CUDA is skipped (and counted)."""
    skipped = []
    for name in names:
        if args.all and entry(name).needs_gpu and not torch.cuda.is_available():
            skipped.append(name)
            continue
        rep = verify(name, args.tolerance, retrain=not args.no_retrain, progress=not args.all)
        if not args.all:
            print(json.dumps(rep))
        print(f"{name}: verified" + (f" ({rep['storage']})" if args.all else ""))
    if args.all:
        print(f"{len(names) - len(skipped)} of {len(names)} built entries verified"
              + (f"; {len(skipped)} GPU entries skipped (no CUDA here; tests/test_gpu_entries.py checks their files): "
                 f"{', '.join(skipped)}" if skipped else ""))


def _list() -> None:
    manifest, retired = read_manifest(), read_retired()
    for name, e in sorted(catalog().items()):
        rec = manifest.get(name)
        if rec is None:
            state = "retired" if name in retired else "not built"
        elif rec.get("train_seconds") is None:
            state = "built"
        else:
            state = f"built, {rec['train_seconds']} s"
        print(f"{name:32s} {state:18s} {e.description}")
    for alias, name in sorted(ALIASES.items()):
        print(f"{alias:32s} {'built' if name in manifest else 'not built':18s} another name of {name}")


def _migrate(names: list[str]) -> None:
    migrated = 0
    for name in names:
        rep = migrate_entry(name)
        migrated += rep["migrated"]
        change = f"{rep['old_sha256'][:12]} -> {rep['sha256'][:12]}" if rep["migrated"] else "already current"
        print(f"{name}: {change}; verified, EM " + ", ".join(f"{k}: {v:.4f}" for k, v in rep["em"].items()))
    print(f"{migrated} of {len(names)} checkpoint(s) migrated, every one re-measured equal to the manifest")


def _migrate_half(names: list[str]) -> None:
    converted = 0
    for name in names:
        rep = half_entry(name)
        converted += rep["converted"]
        if not rep["converted"]:
            print(f"{name}: already float16")
            continue
        old, new = rep["old_em"], rep["em"]
        worst = max(abs(new[k] - old[k]) for k in old)
        print(f"{name}: {rep['old_sha256'][:12]} -> {rep['sha256'][:12]}, float16; EM float32 -> float16: " +
              ", ".join(f"{k}: {old[k]:.4f} -> {new[k]:.4f}" for k in sorted(old)) + f"; largest change {worst:.4f}")
    print(f"{converted} of {len(names)} checkpoint(s) converted to float16 and re-measured")


def main(argv: list[str] | None = None) -> int:
    """Entry point of ``python -m lengen_utils.lab.zoo`` (and the ``lengen-zoo`` script)."""
    args = build_parser().parse_args(argv)
    try:
        names = _preflight(args)
    except (UsageError, ZooError) as err:
        return fail(PROG, err, USAGE_ERROR)
    try:
        if args.cmd == "list":
            _list()
        elif args.cmd == "table":
            if args.readme:
                print(f"{args.readme}: {'updated' if update_readme(args.readme) else 'already up to date'}")
            else:
                print(markdown_table(names), end="")
        elif args.cmd == "migrate":
            if args.ids:
                renamed = rename_ids()
                for old, new in renamed.items():
                    print(f"{old} -> {new}")
                print(f"{len(renamed)} entr{'y' if len(renamed) == 1 else 'ies'} renamed")
            else:
                _migrate_half(names) if args.half else _migrate(names)
        elif args.cmd == "import":
            for name in names:
                done, rec = import_entry_status(name, args.source, replace=args.replace)
                built = f"{rec.get('sha256', '')[:12]}, trained on {rec.get('device')}"
                same = (f"this very build ({built})" if "sha256" in rec else "this very record, in records.json")
                print({IMPORTED: f"{name}: imported from {args.source} ({built})",
                       REPAIRED: f"{name}: its record was there without its file (or with a damaged one); the file "
                                 f"was copied from {args.source} ({built})",
                       RECORDED: f"{name}: imported from {args.source} (its record alone, into records.json, "
                                 f"trained on {rec.get('device')})"}.get(
                    done, f"{name}: the assets folder already holds {same}; nothing to import"))
        elif args.cmd == "retire":
            for name in names:
                retire(name)
                also = f" ({resolve(name)})" if resolve(name) != name else ""
                print(f"{name}{also}: retired (record kept in assets/retired.json; rebuild: {PROG} train {name})")
        elif args.cmd == "train":
            for name in names:
                rec = build(name, device=args.device, max_seconds=args.max_seconds, replace=args.replace)
                print(f"{name}: trained in {rec['train_seconds']} s; EM " +
                      ", ".join(f"{k}: {v:.3f}" for k, v in rec["metrics"]["em"].items()))
        else:
            _verify(names, args)
    except KeyboardInterrupt:
        return fail(PROG, "interrupted; the assets and the manifest are as they were", INTERRUPTED)
    except (ZooError, CheckpointError, AssertionError, OSError) as err:
        return fail(PROG, err, RUN_ERROR)
    return 0

