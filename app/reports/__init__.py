"""Audit report drafts built from stored findings."""
