"""lemminflect reads its dictionary on first use: threads that look words up together read it once."""

from __future__ import annotations

import threading

from lemminflect.codecs import LemmaLUCodec
from lemminflect.core.Lemmatizer import Lemmatizer

from ambiforge.validation import language


def test_threads_looking_up_words_together_read_the_dictionary_once(monkeypatch) -> None:
    reads = []
    real_load = LemmaLUCodec.LemmaLUCodec.load

    def counted(path):  # type: ignore[no-untyped-def]
        reads.append(path)
        return real_load(path)

    lemmatizer = Lemmatizer()  # lemminflect's singleton
    if hasattr(lemmatizer, "lemma_dict"):
        monkeypatch.delattr(lemmatizer, "lemma_dict")
    monkeypatch.setattr(LemmaLUCodec.LemmaLUCodec, "load", staticmethod(counted))
    monkeypatch.setattr(language, "_loaded", False)
    language.classes.cache_clear()
    start = threading.Barrier(8)
    words = ["knives", "bowls", "whisk", "peel", "onions", "pans", "spoon", "grate"]
    found: dict[str, frozenset[str]] = {}

    def look_up(word: str) -> None:
        start.wait()
        found[word] = language.classes(word)

    threads = [threading.Thread(target=look_up, args=(word,)) for word in words]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    language.classes.cache_clear()
    assert len(reads) == 1
    assert "NOUN" in found["knives"] and "VERB" in found["peel"]
