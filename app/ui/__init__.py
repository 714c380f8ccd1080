"""AURA's Streamlit UI. It talks to the HTTP API only (``client.ApiClient``); it never opens the
stores. Run it with ``aura ui``."""
