"""N x M multiplication with both operands of any length (notebook 09): :mod:`.format` (the fused-row scratchpad
and its reading), :mod:`.positions` (three channels of coupled IDs) and :mod:`.task` (the task class beside the
arithmetic and board ones)."""
from .format import NXM_FORMATS, decode_product, encode_nxm, fused_rows, scratchpad_tokens  # noqa: F401
from .positions import NXM_CHANNELS, NXM_SCHEMES, RowPositions, row_ids  # noqa: F401
