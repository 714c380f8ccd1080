"""One module per node. Each exposes ``build(services) -> node function``."""
