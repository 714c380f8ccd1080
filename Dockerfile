# AURA API / UI image (used by docker-compose.yml). CPU-only torch first, then the package.
FROM python:3.11-slim
ENV PIP_NO_CACHE_DIR=1 HF_HUB_OFFLINE=1 PYTHONUNBUFFERED=1
RUN apt-get update && apt-get install -y --no-install-recommends gcc g++ curl && rm -rf /var/lib/apt/lists/*
WORKDIR /app
COPY pyproject.toml README.md ./
COPY app ./app
COPY graph ./graph
COPY sop ./sop
COPY data ./data
RUN pip install --index-url https://download.pytorch.org/whl/cpu torch==2.13.0 && pip install .
EXPOSE 8000 8501
CMD ["aura", "serve", "--host", "0.0.0.0", "--port", "8000"]
