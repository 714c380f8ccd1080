"""AURA: an audit assistant grounded in real audit reports."""
