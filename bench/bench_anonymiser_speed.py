"""Benchmark the anonymiser (anonymiser.anonymise) and its leak report (anonymiser.leaks)
on adversarial answers: no answer may stall them (issue 23, point 6).

Usage: python bench/bench_anonymiser_speed.py [--answers N] [--seed S]
(from a worktree other than the installed one: PYTHONPATH=. python bench/...)

1. "GPT-" + n digits + "xx" for n = 10..40 (took 15 s at n = 24 when the version patterns
   backtracked, doubling with each digit);
2. N random long answers (default 10,000) mixing names, digits, separators, Chinese and
   look-alike letters: max and p99 time per answer, and characters per second;
3. one answer of 1 MB;
4. one word of 10,000 to 80,000 characters, capitals then a small letter, repeated.

Prints the figures; it asserts nothing (tests assert no time).
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable

from review_app.anonymiser.anonymise import Scrubber
from review_app.anonymiser.leaks import leak_report

_NAMES = ("GPT-5.4 mini", "Claude", "Gemini 2.5", "Llama", "OpenAI", "通义千问", "豆包", "Meta")
_PIECES = (
    *_NAMES,
    *(
        "C l a u d e",
        "G.P.T",
        "Cl4ude",
        "Сlаudе",
        "我是",
        "由",
        "开发",
        "sou o",
        "I'm",
        "developed by",
    ),
    *("1234567890", "-", ".", " ", "  ", "_", "/", ":", "x", "Ж", "λ", "的", "\u200b", "**"),
    *("a meta do mês", "pesquisei no Google", "the anthropic principle", "Sou a Lia, assistente"),
)


def _seconds(function: Callable[[], object]) -> float:
    start = time.perf_counter()
    function()
    return time.perf_counter() - start


def _answer(rng: random.Random, pieces: int) -> str:
    return "".join(rng.choice(_PIECES) + rng.choice(("", " ", "", ", ")) for _ in range(pieces))


def _report(label: str, scrub: list[float], leaks: list[float], chars: int) -> None:
    for what, times in (("scrub", scrub), ("leak report", leaks)):
        ordered = sorted(times)
        p99 = ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))]
        total = sum(times)
        print(
            f"{label:<28} {what:<12} max {max(times) * 1000:9.2f} ms   p99 {p99 * 1000:8.2f} ms"
            f"   {chars / total / 1e6:6.2f} M chars/s"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--answers", type=int, default=10_000)
    parser.add_argument("--seed", type=int, default=23)
    arguments = parser.parse_args()
    scrubber = Scrubber(("GPT 5.4-Mini", "Sabiá-4", "Maritaca AI", "Qwen 3.6 Flash"))
    scrubber("warm up: Sou o Claude.")

    print("GPT- + n digits + xx")
    for digits in range(10, 41, 2):
        text = "GPT-" + "1" * digits + "xx"
        scrub = _seconds(lambda text=text: scrubber(text))  # type: ignore[misc]
        leaks = _seconds(lambda text=text: leak_report([text], scrubber))  # type: ignore[misc]
        print(f"  n={digits:2d}  scrub {scrub * 1000:7.3f} ms   leak report {leaks * 1000:7.3f} ms")

    rng = random.Random(arguments.seed)
    answers = [_answer(rng, rng.randint(50, 400)) for _ in range(arguments.answers)]
    chars = sum(map(len, answers))
    scrub_times = [_seconds(lambda a=a: scrubber(a)) for a in answers]  # type: ignore[misc]
    leak_times = [_seconds(lambda a=a: leak_report([a], scrubber)) for a in answers]  # type: ignore[misc]
    print(f"\n{len(answers)} random answers, {chars / len(answers):.0f} characters on average")
    _report("random answers", scrub_times, leak_times, chars)

    big = _answer(rng, 1)
    while len(big) < 1_000_000:
        big += _answer(rng, 1000)
    big = big[:1_000_000]
    print("\none answer of 1 MB")
    _report(
        "1 MB answer",
        [_seconds(lambda: scrubber(big))],
        [_seconds(lambda: leak_report([big], scrubber))],
        len(big),
    )

    # One long word: a pattern tried from each of its capitals must not rescan the rest
    # (an owner's possessive did, before round 4: 22 s at 40,000 characters).
    print("\none word of n characters (30 capitals, then a small letter, repeated)")
    for size in (10_000, 20_000, 40_000, 80_000):
        word = ("I" * 30 + "a") * (size // 31)
        scrub = _seconds(lambda word=word: scrubber(word))  # type: ignore[misc]
        leaks = _seconds(lambda word=word: leak_report([word], scrubber))  # type: ignore[misc]
        print(f"  n={size:6d}  scrub {scrub * 1000:8.1f} ms   leak report {leaks * 1000:8.1f} ms")


if __name__ == "__main__":
    main()
