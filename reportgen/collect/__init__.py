"""Collecting a round's answers with the tools evaluation teams already use.

`reportgen render` writes what to send (sending.py: to_send.jsonl / .csv, an inspect_ai
dataset and task file); `reportgen import inspect` (inspect_logs.py, with the optional
`inspect` extra) and `reportgen import jsonl` (plain.py) read the answers back, match them
to the round's calls and hand them to the round's kind, which writes them into the raw
round in its own format (collected.py). Nothing here names a kind.
"""
