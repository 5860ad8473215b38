"""Names and files as clubs and directors write them: a synthetic roster (fixed seed), roster
names respelt as a file might spell them, and a generated FIDE TRF."""

from __future__ import annotations

import random

TRF_NAME_WIDTH = 33  # the name column of a TRF player line

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


def file_field(known: list[str], newcomers: list[str], rng: random.Random) -> list[str]:
    """An event's names as its file spells them: the `known` roster names respelt (cut to the
    TRF's name column), then the newcomers; one line a person ("Bos, Anna" and "Anna Bos" would
    both preselect one player), an even number of them (trf_file pairs everyone every round)."""
    from matching import name_key

    field = [respelt(name, rng)[:TRF_NAME_WIDTH] for name in known] + newcomers
    field = list({name_key(name): name for name in field}.values())
    return field[: len(field) // 2 * 2]


def trf_file(field: list[str], rng: random.Random, rounds: int) -> bytes:
    """A FIDE TRF of `field` (names as written), `rounds` rounds of random pairings."""
    cells: dict[int, list[str]] = {rank: [] for rank in range(1, len(field) + 1)}
    points = dict.fromkeys(cells, 0.0)
    ranks = list(cells)
    for _round in range(rounds):
        rng.shuffle(ranks)
        for white, black in zip(ranks[::2], ranks[1::2], strict=True):
            score = rng.choice([1.0, 0.5, 0.0])
            code = {1.0: ("1", "0"), 0.5: ("=", "="), 0.0: ("0", "1")}[score]
            cells[white].append(f"{black:>4} w {code[0]}")
            cells[black].append(f"{white:>4} b {code[1]}")
            points[white] += score
            points[black] += 1 - score
    lines = [
        "012 Bench Open",
        "042 2030/06/01",
        f"062 {len(field)}",
        "092 Individual: Swiss-System",
    ]
    for rank, name in enumerate(field, start=1):
        line = f"001 {rank:>4}      {name:<33} {1500 + rank:>4}                         "
        line = line.ljust(80) + f"{points[rank]:>4.1f}" + f" {rank:>4}"
        line = line.ljust(91) + "  ".join(cells[rank])
        lines.append(line)
    return ("\n".join(lines) + "\n").encode()


def club_night_csv(rng: random.Random, guests: int = 6, rounds: int = 3) -> bytes:
    """A small club night as CSV: `guests` new names (drawn, so fewer when two coincide)
    paired at random in each of `rounds` rounds."""
    field = list(dict.fromkeys(f"Guest {rng.randrange(1000):03d} Visitor" for _ in range(guests)))
    rows = ["round,white,black,result"]
    for round_no in range(1, rounds + 1):
        rng.shuffle(field)
        pairs = zip(field[::2], field[1::2], strict=False)
        rows += [f"{round_no},{w},{b},{rng.choice(('1-0', '0-1', '='))}" for w, b in pairs]
    return ("\n".join(rows) + "\n").encode()
