"""Evaluation harnesses: retrieval quality (``aura eval retrieval``) and routing accuracy."""
