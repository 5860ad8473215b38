"""Name matching: the evaluation table and the 60 and 1,000 x 10,000 timings, as Markdown.

    .venv/bin/python bench/matching.py

The roster is synthetic (fixed seed): 10,000 names from mixed first names and
surnames (Dutch particles, accents, some Cyrillic, middle names, Jr./Sr., some
written "Last, First"). The event is 60 typed names: 45 roster names spelt as a
director's file might (case, order, initials, a typo, accents dropped, a
nickname, a title) and 15 newcomers. The names step of a large open is 1,000 typed
names (750 respelt roster names, 250 newcomers) against the same roster, and the
bound on the work per name is shown against 10,000 near-identical names.
"""

from __future__ import annotations

import os
import platform
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from matching import (
    PreparedRoster,
    name_key,
    possible_duplicates,
    prepare_roster,
    suggest,
    suggest_prepared,
)
from matching.suggest import _entry_of as remembered_profiles
from tests.matching.evaluation_set import (
    CASES,
    ROSTER,
    run,
    score_by_category,
    table,
)

FIRST = [
    "Emma", "Eva", "Anna", "Sanne", "Lotte", "Fleur", "Noor", "Julia", "Sophie", "Lisa", "Iris",
    "Femke", "Anouk", "Roos", "Tess", "Mila", "Jan", "Pieter", "Daan", "Bram", "Sem", "Lucas",
    "Thijs", "Ruben", "Lars", "Koen", "Stijn", "Bas", "Jesse", "Milan", "Finn", "Levi",
    "Johannes", "Willem", "Hendrik", "Cornelis", "Jacob", "Robert", "William", "Richard",
    "Michael", "Thomas", "John", "James", "Oliver", "Harry", "Jack", "Charlie", "George",
    "Amelia", "Olivia", "Grace", "Chloe", "Emily", "Sarah", "Hans", "Klaus", "Jürgen",
    "Günther", "Stefan", "Tobias", "Lukas", "Katharina", "Sabine", "Monika", "Petra", "Ivan",
    "Sergei", "Dmitry", "Alexander", "Mikhail", "Vladimir", "Yuri", "Olga", "Natalia",
    "Ekaterina", "Irina", "Tatiana", "Amit", "Rahul", "Priya", "Neha", "Vikas", "Sunil",
    "Deepak", "Anil", "Kavita", "Pooja", "Arjun", "Sanjay", "Ravi", "Kiran", "Ananya", "José",
    "Carlos", "Lucía", "María", "João", "Ana", "Pierre", "Camille", "François", "Léa", "Łukasz",
    "Piotr", "Katarzyna", "Søren", "Bjørn", "Ingrid", "Mehmet", "Ayşe", "Wei", "Hiroshi",
    "Yuki", "Thanh", "Ahmed", "Fatima", "Youssef", "Nikos", "Eleni", "Tamar", "Siobhan", "Rhys",
]  # fmt: skip
SURNAMES = [
    "de Vries", "de Jong", "Jansen", "Janssen", "Bakker", "Visser", "Smit", "Meijer", "de Boer",
    "Mulder", "de Groot", "Bos", "Vos", "Peters", "Hendriks", "van Dijk", "van den Berg",
    "van der Meer", "van Leeuwen", "Dekker", "Brouwer", "de Wit", "Dijkstra", "Smits",
    "de Graaf", "van der Linden", "Kok", "Jacobs", "de Haan", "Vermeulen", "van den Heuvel",
    "van der Veen", "van den Broek", "de Bruijn", "de Bruin", "van der Heijden", "Schouten",
    "Beekman", "van Beek", "Willems", "van Vliet", "Hoekstra", "Maas", "Verhoeven", "Koster",
    "Prins", "Blom", "Huisman", "Peeters", "'t Hart", "ter Horst", "Smith", "Jones", "Taylor",
    "Brown", "Williams", "Wilson", "Johnson", "Davies", "Robinson", "Wright", "Thompson",
    "Evans", "Walker", "White", "Roberts", "Green", "Hall", "Wood", "Jackson", "Clarke",
    "Müller", "Schmidt", "Schneider", "Fischer", "Weber", "Meyer", "Wagner", "Becker", "Schulz",
    "Hoffmann", "Schäfer", "Koch", "Richter", "Klein", "Wolf", "Schröder", "Neumann", "Schwarz",
    "Zimmermann", "Braun", "Krüger", "Hofmann", "Hartmann", "Ivanov", "Smirnov", "Kuznetsov",
    "Popov", "Vasiliev", "Petrov", "Sokolov", "Mikhailov", "Novikov", "Fedorov", "Morozov",
    "Volkov", "Alekseev", "Lebedev", "Semenov", "Egorov", "Pavlov", "Kozlov", "Stepanov",
    "Nikolaev", "Patel", "Sharma", "Singh", "Kumar", "Gupta", "Verma", "Joshi", "Mehta",
    "Reddy", "Nair", "Iyer", "Rao", "Shah", "García", "Fernández", "López", "Martínez", "Silva",
    "Santos", "Costa", "Dubois", "Martin", "Bernard", "Moreau", "Nowak", "Kowalski",
    "Wiśniewski", "Wójcik", "Kamiński", "Nilsson", "Andersen", "Hansen", "Jørgensen", "Yılmaz",
    "Kaya", "Demir", "Zhang", "Wang", "Tanaka", "Sato", "Nguyen", "Tran", "Hassan", "Cohen",
    "Murphy", "Kelly", "O'Brien", "MacLeod", "della Rosa", "da Silva", "Di Marco", "von Stein",
    "Le Roux",
]  # fmt: skip
CYRILLIC = {"Ivan": "Иван", "Sergei": "Сергей", "Olga": "Ольга", "Ivanov": "Иванов"}
NICKNAMES = {"Robert": "Bob", "William": "Bill", "Johannes": "Hans", "Alexander": "Sasha"}
MIDDLE = ["Maria", "Jan", "Anne", "Peter", "Elena", "Kumar", "Louise", "Hendrik"]


def synthetic_roster(size: int, rng: random.Random) -> list[str]:
    names: set[str] = set()
    while len(names) < size:
        first, last = rng.choice(FIRST), rng.choice(SURNAMES)
        middle = f" {rng.choice(MIDDLE)}" if rng.random() < 0.08 else ""
        suffix = rng.choice([" Jr.", " Sr."]) if rng.random() < 0.01 else ""
        if rng.random() < 0.03:
            first, last = CYRILLIC.get(first, first), CYRILLIC.get(last, last)
        if rng.random() < 0.1:
            names.add(f"{last}{suffix}, {first}{middle}")
        else:
            names.add(f"{first}{middle} {last}{suffix}")
    return sorted(names)


def respelt(name: str, rng: random.Random) -> str:
    """A roster name as a director's file might spell it."""
    words = name.replace(",", "").split()
    change = rng.choice(["case", "order", "initial", "typo", "ascii", "nickname", "title"])
    if change == "case":
        return name.upper()
    if change == "order":
        return f"{words[-1]}, {' '.join(words[:-1])}"
    if change == "initial":
        return f"{words[0][0]}. {' '.join(words[1:])}"
    if change == "typo":
        at = rng.randrange(1, len(name) - 1)
        return name[:at] + name[at + 1] + name[at] + name[at + 2 :]
    if change == "ascii":
        return name.translate(str.maketrans("üäöéáíóøłśńçı", "uaoeaiooisnci"))
    if change == "nickname":
        return " ".join(NICKNAMES.get(word, word) for word in words)
    return f"GM {name}"


def timed(action, repeat: int = 7) -> str:
    """Median and best wall time, and best CPU time of this process, in milliseconds (the
    CPU time is what the code costs when other jobs share the machine's cores)."""
    runs, cpu = [], []
    for _ in range(repeat):
        start, start_cpu = time.perf_counter(), time.process_time()
        action()
        runs.append((time.perf_counter() - start) * 1000)
        cpu.append((time.process_time() - start_cpu) * 1000)
    return f"{statistics.median(runs):.0f} | {min(runs):.0f} | {min(cpu):.0f}"


def cpu_model() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown"


def main() -> None:
    rng = random.Random(20240601)
    roster = synthetic_roster(10_000, rng)
    typed = [respelt(name, rng) for name in rng.sample(roster, 45)]
    typed += [f"{rng.choice(FIRST)} {rng.choice(SURNAMES)}son" for _ in range(15)]
    keys = [name_key(name) for name in roster]

    prepared = prepare_roster(roster, keys=keys)
    match_ms = timed(lambda: [suggest_prepared(name, prepared) for name in typed])

    def from_names() -> None:
        remembered_profiles.cache_clear()
        prepare_roster(roster)

    def from_keys() -> None:
        remembered_profiles.cache_clear()
        prepare_roster(roster, keys=keys)

    from_names_ms = timed(from_names)
    from_keys_ms = timed(from_keys)

    def cold() -> None:
        remembered_profiles.cache_clear()  # the first event after the process started
        fresh = prepare_roster(roster, keys=keys)
        for name in typed:
            suggest_prepared(name, fresh)

    cold_ms = timed(cold)
    grown, grown_keys = [*roster, "Newcomer Zebedee"], [*keys, name_key("Newcomer Zebedee")]

    def after_one_new_player() -> None:
        # The usual case: the roster changed by a name since it was last prepared.
        fresh = prepare_roster(grown, keys=grown_keys)
        for name in typed:
            suggest_prepared(name, fresh)

    prepare_roster(roster, keys=keys)
    changed_ms = timed(after_one_new_player)
    duplicates_ms = timed(lambda: possible_duplicates(roster), repeat=3)
    duplicates = possible_duplicates(roster)

    large = large_event(roster, rng, keys)

    evaluated = prepare_roster(ROSTER)
    outcomes = run(lambda name: suggest_prepared(name, evaluated))

    load = ", ".join(f"{value:.1f}" for value in os.getloadavg())
    print(f"Machine: {os.cpu_count()} CPUs ({cpu_model()}), Python {platform.python_version()}")
    print(f"Load average at the end (1, 5, 15 min): {load}")
    print()
    print(f"Evaluation set: {len(CASES)} cases against a roster of {len(ROSTER)} names")
    print()
    print(table(score_by_category(outcomes)))
    print()
    print("| 10,000-name roster | median ms | best ms | best CPU ms |")
    print("|---|---:|---:|---:|")
    print(f"| prepare_roster from names | {from_names_ms} |")
    print(f"| prepare_roster from stored keys | {from_keys_ms} |")
    print(f"| 60 x suggest_prepared (roster prepared) | {match_ms} |")
    print(f"| prepare from stored keys + 60 x suggest_prepared, first time | {cold_ms} |")
    print(f"| the same after the roster gained a player | {changed_ms} |")
    print(f"| possible_duplicates ({len(duplicates)} pairs returned) | {duplicates_ms} |")
    print()
    print("| names step: 1,000 typed names, 10,000 players | median ms | best ms | best CPU ms |")
    print("|---|---:|---:|---:|")
    for label, figures in large:
        print(f"| {label} | {figures} |")


def large_event(roster: list[str], rng: random.Random, keys: list[str]) -> list[tuple[str, str]]:
    """The names step of a 1,000-entrant open against a 10,000-player roster, and the same
    against rosters built to defeat the indexes."""
    typed = [respelt(name, rng) for name in rng.sample(roster, 750)]
    typed += [f"{rng.choice(FIRST)} {rng.choice(SURNAMES)}son" for _ in range(250)]
    prepared = prepare_roster(roster, keys=keys)

    def cold() -> None:
        remembered_profiles.cache_clear()
        fresh = prepare_roster(roster, keys=keys)
        for name in typed:
            suggest_prepared(name, fresh)

    grown, grown_keys = [*roster, "Newcomer Zebedee"], [*keys, name_key("Newcomer Zebedee")]

    def after_one_new_player() -> None:
        fresh = prepare_roster(grown, keys=grown_keys)
        for name in typed:
            suggest_prepared(name, fresh)

    def from_keys() -> None:
        remembered_profiles.cache_clear()
        prepare_roster(roster, keys=keys)

    rows = [
        ("prepare_roster from stored keys (nothing remembered)", timed(from_keys, repeat=5)),
        (
            "1,000 x suggest_prepared (roster prepared)",
            timed(lambda: [suggest_prepared(name, prepared) for name in typed], repeat=5),
        ),
        ("prepare from stored keys + 1,000 x suggest_prepared, first time", timed(cold, 3)),
        ("**the same after the roster gained a player**", timed(after_one_new_player, 5)),
        (
            "one `suggest` (prepares the roster from names)",
            timed(lambda: suggest(typed[0], roster), 3),
        ),
    ]
    same = ["Jan Jansen"] * 10_000
    near = [f"Jan Jansen {chr(97 + at % 26)}{chr(97 + at // 26 % 26)}" for at in range(10_000)]
    typos = [f"Jan Jans{chr(97 + at % 26)}n {chr(97 + at // 26 % 26)}" for at in range(10_000)]
    for label, names in [
        ("one name 10,000 times", same),
        ("10,000 near-identical names", near),
        ("10,000 names a typo apart", typos),
    ]:
        hostile = prepare_roster(names)
        hits = rng.sample(names, 1_000)  # every typed name falls in the crowd

        def match(hostile: PreparedRoster = hostile, hits: list[str] = hits) -> None:
            for name in hits:
                suggest_prepared(name, hostile)

        rows.append((f"1,000 x suggest_prepared, 1,000 of {label}", timed(match, 3)))
    return rows


if __name__ == "__main__":
    main()
