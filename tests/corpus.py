"""Where the shared TRF corpus is: /work/shared/trf-corpus, read in place and never copied.

A checkout of main sits beside `shared/` and a worktree one folder deeper (/work/wt/NAME), so
the corpus is looked for beside each folder above the repository; tests that need it skip
when it is nowhere.
"""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TRF_CORPUS = next(
    (
        folder / "shared" / "trf-corpus"
        for folder in ROOT.parents
        if (folder / "shared" / "trf-corpus").is_dir()
    ),
    ROOT.parent / "shared" / "trf-corpus",
)
