"""Write golden.json: reference token ids and embeddings of all-MiniLM-L6-v2.

Run once by hand, never in CI (it needs torch and sentence-transformers):

    python -m venv venv && venv/bin/pip install sentence-transformers tokenizers
    venv/bin/python daemon/bert/testdata/golden.py MODEL_DIR > daemon/bert/testdata/golden.json

MODEL_DIR holds the files scripts/fetch-model.sh fetches plus tokenizer.json
and the sentence-transformers config files of the same package. Token ids
come from Hugging Face's tokenizers (tokenizer.json); embeddings from
sentence-transformers (mean pooling, normalised).
"""
import json
import sys

from sentence_transformers import SentenceTransformer
from tokenizers import Tokenizer

SENTENCES = [
    "turn on dark mode",
    "turn off dark mode",
    "Could you PLEASE switch the app's theme to 'Light'?!",
    "set bitrate to 128 kbps",
    "text José: café at 5:30pm, naïve résumé",
    "東京 weather — tomorrow",
    "",
    "unbelievably antidisestablishmentarianism supercalifragilistic",
    "call mom\tnow\n",
    "a " * 300,
]

model_dir = sys.argv[1]
tok = Tokenizer.from_file(model_dir + "/tokenizer.json")
tok.no_padding()
tok.no_truncation()
model = SentenceTransformer(model_dir, device="cpu")
vecs = model.encode(SENTENCES, normalize_embeddings=True, convert_to_numpy=True)
out = []
for s, v in zip(SENTENCES, vecs):
    ids = tok.encode(s).ids
    st_ids = model.tokenizer(s, truncation=True, max_length=model.max_seq_length)["input_ids"]
    out.append({"text": s, "ids": ids, "st_ids": st_ids, "embedding": [round(float(x), 7) for x in v]})
json.dump({"model": "sentence-transformers/all-MiniLM-L6-v2", "max_seq_length": model.max_seq_length, "sentences": out}, sys.stdout)
