"""Auditors' 👍/👎 on answers: stored per key and turn, exported for evaluation."""
