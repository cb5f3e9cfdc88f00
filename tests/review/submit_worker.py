"""A reviewer's process for the kill test: judges its queue one sample at a time.

Prints each code after its judgment is committed, then sleeps, so that the parent
can kill it between (or during) submissions.
"""

from __future__ import annotations

import os
import sys
import time

from review_app.core.db import make_engine
from review_app.tasks.reviewing import my_queue, submit_judgment


def main() -> None:
    engine = make_engine(os.environ["REVIEW_DB_URL"])
    token = os.environ["REVIEW_TOKEN"]
    for entry in my_queue(engine, token):
        submit_judgment(engine, token, entry.code, "yes", "killed mid-session")
        print(entry.code, flush=True)
        time.sleep(0.01)
    sys.exit(0)


if __name__ == "__main__":
    main()
