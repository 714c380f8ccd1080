"""Benchmarks that print figures (``aura bench ...``); ``make bench`` runs them all and writes
BENCHMARKS.md. Each figure is one JSON line. Modules import their heavy parts lazily, so
registering the commands costs nothing at ``aura`` start-up."""
