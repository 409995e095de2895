"""Rank 1 fails at once; the other ranks would run for ten minutes (the launcher must stop
them)."""
import os
import time

print(f"rank {os.environ['RANK_ID']} started", flush=True)
if os.environ["RANK_ID"] == "1":
    raise SystemExit("rank 1 stops here")
time.sleep(600)
print("slept", flush=True)
