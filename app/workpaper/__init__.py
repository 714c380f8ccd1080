"""The working paper of a thread: every turn's question, answer, evidence, steps and versions."""
