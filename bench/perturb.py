#!/usr/bin/env python3
"""A perturbed copy of the shared data, to measure how much pagelevel leans on English and on markup formatting.

    python3 bench/perturb.py --mode MODE --out DIR [--data ../shared/data] [--sets a,b]
    python3 bench/fold_models.py score --scheme set|site --out FOLDS --tag MODE --data DIR

The shared sets are at least 95% English and their pages keep their formatting; the web is
neither. Each mode rewrites every page's text (not its tags, attributes, comments, scripts or
styles) and, where it changes words, the gold text the same way, so word-F1 still compares
like with like:

- `whitespace`: every run of spaces, tabs and newlines outside `<pre>`, `<textarea>`,
  `<script>` and `<style>` becomes one space (a minified page; a browser shows the same text);
- `function-words`: the function words of pagelevel's stop list (`STOP_WORDS` in
  `src/features/vocabulary.rs`) get a `q` appended, as if the page were written in a language
  whose function words the list lacks;
- `capitals`: about two in five words of five or more letters start upper-case (the same word
  always), as German nouns do; word-F1 lower-cases, so the gold is unchanged;
- `language`: `function-words` and `capitals` together.

Bytes are read and written as Latin-1, so every byte outside the rewritten ASCII letters and
spaces stays as it was (legacy charsets and `<meta charset>` included); letters right after `&`
(entity names) are left alone. The manifests are copied unchanged: the pages keep their paths
under DIR, so `fold_models.py score --data DIR` scores them with the kept fold models, paired
with the unperturbed scores of the same models. Time: about a minute for all sets. Nothing of
the data is committed: DIR belongs under /tmp.
"""
import argparse
import gzip
import json
import os
import re
import sys
import zlib

from fold_models import SETS

MODES = ["whitespace", "function-words", "capitals", "language"]
# Tags, comments and the elements whose content is not text; the text lies between them.
MARKUP = re.compile(rb"(?is)<(script|style)\b.*?</\1\s*>|<!--.*?-->|<[^>]*>")
# The elements whose white space shows (pre, textarea) or is not text (script, style).
KEEP_SPACE = re.compile(rb"(?is)<(pre|textarea|script|style)\b.*?</\1\s*>")
WORD = re.compile(r"(?<![&A-Za-z])[A-Za-z]+")


def stop_words(root: str) -> set:
    """The stop list of `src/features/vocabulary.rs`, read from the source."""
    src = open(os.path.join(root, "src", "features", "vocabulary.rs"), encoding="utf-8").read()
    m = re.search(r"STOP_WORDS: &\[&str\] = &\[(.*?)\];", src, re.S)
    if not m:
        sys.exit("STOP_WORDS not found in src/features/vocabulary.rs")
    return set(re.findall(r'"([^"]+)"', m.group(1)))


def word_rewriter(mode: str, stops: set):
    def rewrite(m: re.Match) -> str:
        w = m.group(0)
        lw = w.lower()
        if mode in ("function-words", "language") and lw in stops:
            return w + "q"
        if mode in ("capitals", "language") and len(w) >= 5 and w[0].islower():
            if zlib.crc32(lw.encode()) % 5 < 2:
                return w[0].upper() + w[1:]
        return w

    return lambda text: WORD.sub(rewrite, text)


def between(html: bytes, skipped: re.Pattern, fn) -> bytes:
    """`html` with `fn` (bytes -> bytes) applied to each stretch between matches of `skipped`,
    the matches kept as they are. O(len)."""
    out, pos = [], 0
    for m in skipped.finditer(html):
        out += [fn(html[pos : m.start()]), m.group(0)]
        pos = m.end()
    out.append(fn(html[pos:]))
    return b"".join(out)


def rewrite_text(html: bytes, text_fn) -> bytes:
    """Applies `text_fn` (str -> str, over Latin-1) to the text between markup."""
    return between(html, MARKUP, lambda t: text_fn(t.decode("latin-1")).encode("latin-1"))


def collapse_whitespace(html: bytes) -> bytes:
    """Runs of ASCII white space become one space, except inside pre/textarea/script/style."""
    return between(html, KEEP_SPACE, lambda t: re.sub(rb"[ \t\r\n\f]+", b" ", t))


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--mode", choices=MODES, required=True)
    p.add_argument("--out", required=True, help="folder for the perturbed copy (under /tmp)")
    p.add_argument("--data", default="../shared/data")
    p.add_argument("--sets", default=",".join(SETS))
    args = p.parse_args()
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    if os.path.abspath(args.out) == os.path.abspath(args.data):
        sys.exit("--out must not be the data folder")
    text_fn = None if args.mode == "whitespace" else word_rewriter(args.mode, stop_words(root))
    pages = 0
    for s in args.sets.split(","):
        manifest = os.path.join(args.data, s, "manifest.jsonl")
        if not os.path.exists(manifest):
            sys.exit(f"{manifest}: no such manifest")
        os.makedirs(os.path.join(args.out, s), exist_ok=True)
        with open(manifest, encoding="utf-8") as src, open(
            os.path.join(args.out, s, "manifest.jsonl"), "w", encoding="utf-8"
        ) as dst:
            for line in src:
                if not line.strip():
                    continue
                r = json.loads(line)
                with gzip.open(os.path.join(args.data, r["html"])) as f:
                    html = f.read()
                html = collapse_whitespace(html) if text_fn is None else rewrite_text(html, text_fn)
                path = os.path.join(args.out, r["html"])
                os.makedirs(os.path.dirname(path), exist_ok=True)
                with gzip.open(path, "wb") as f:
                    f.write(html)
                if r.get("gold"):
                    gold = open(os.path.join(args.data, r["gold"]), encoding="utf-8", errors="replace").read()
                    path = os.path.join(args.out, r["gold"])
                    os.makedirs(os.path.dirname(path), exist_ok=True)
                    with open(path, "w", encoding="utf-8") as f:
                        f.write(gold if text_fn is None else text_fn(gold))
                dst.write(line if line.endswith("\n") else line + "\n")
                pages += 1
    print(f"{pages} pages ({args.mode}) in {args.out}")


if __name__ == "__main__":
    main()
