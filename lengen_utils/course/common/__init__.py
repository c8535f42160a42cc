"""The course modules that more than one notebook uses: the shared exercise machinery (exercises) and the section
modules that several chapters read (claims, paper_scale, paper_claims, seeds, baselines); a chapter folder imports these,
never another chapter."""
