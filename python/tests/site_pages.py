"""Pages of one made-up site, without pytest: the tests and `bench/stability.py` read them."""

from __future__ import annotations


def site_pages(n: int) -> list[tuple[str, str]]:
    """n pages of one made-up site: the same header, menu and footer around a different article."""
    pages = []
    for k in range(n):
        # Letters, not digits: SiteLevel hashes every digit run as one `0`.
        tag = "".join(chr(ord("a") + int(d)) for d in str(k))
        words = " ".join(f"word{tag}q{chr(ord('a') + j % 26)}" for j in range(60))
        html = f"""<!doctype html><html><head><title>Story {tag}</title></head><body>
<header><h1>The Daily Example</h1><nav><ul><li><a href="/">Home</a></li>
<li><a href="/world">World</a></li><li><a href="/sport">Sport</a></li></ul></nav></header>
<main><article><h2>Story number {tag}</h2><p>{words}.</p><p>Second paragraph of story {tag}.</p></article></main>
<footer><p>Copyright The Daily Example. All rights reserved.</p></footer></body></html>"""
        pages.append((f"https://news.example.com/story/{k}", html))
    return pages
