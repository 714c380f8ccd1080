"""Running the audit graph: the services it is given, and one entry point per turn."""
