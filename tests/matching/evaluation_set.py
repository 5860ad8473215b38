"""A labelled evaluation set for name matching, and the measures computed on it.

Each `Case` is a name as a director's file might spell it, a name on the club
roster, whether they are the same person, and a category. Every case is run
against the whole `ROSTER` (the roster names of all cases plus the club's other
members, with many Smiths, Jansens, Müllers, Patels and Ivanovs), so the
siblings, fathers and sons and namesakes compete with the true player.

Measures, per category:
- top-1 / top-3 recall (same-person cases): the roster name is the first / among
  the first three suggestions;
- preselect recall (same-person cases): the roster name is preselected;
- preselect precision (same-person cases): of the cases where something was
  preselected, the share where it was the roster name;
- false preselects (different-person cases): the roster name was preselected.
  This must be zero.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from matching import Suggestion


@dataclass(frozen=True)
class Case:
    typed: str
    roster_name: str
    same: bool
    category: str


def _same(category: str, *pairs: tuple[str, str]) -> list[Case]:
    return [Case(typed, roster_name, True, category) for typed, roster_name in pairs]


def _different(category: str, *pairs: tuple[str, str]) -> list[Case]:
    return [Case(typed, roster_name, False, category) for typed, roster_name in pairs]


CASES: list[Case] = [
    *_same(
        "case",
        ("emma de vries", "Emma de Vries"),
        ("JOHN SMITH", "John Smith"),
        ("pieter bakker", "Pieter Bakker"),
        ("SANNE VISSER", "Sanne Visser"),
        ("Ruben DE JONG", "Ruben de Jong"),
        ("anna meijer", "Anna Meijer"),
        ("ian mcdonald", "Ian McDonald"),
        ("LUCAS VAN DIJK", "Lucas van Dijk"),
        ("priya sharma", "Priya Sharma"),
        ("Oliver BROWN", "Oliver Brown"),
        ("tim de wit", "Tim de Wit"),
        ("noah peters", "Noah Peters"),
    ),
    *_same(
        "spacing",
        ("  Thomas   Mulder ", "Thomas Mulder"),
        ("Ian Mc Donald", "Ian McDonald"),
        ("Anne Marie Bos", "Annemarie Bos"),
        ("Lars  de  Boer", "Lars de Boer"),
        ("Fleur deGroot", "Fleur de Groot"),
        ("Sophie\tvan Leeuwen", "Sophie van Leeuwen"),
        ("Mohammed AlHassan", "Mohammed Al-Hassan"),
        ("Xiao Mei Chen", "Xiaomei Chen"),
        ("Jo Ann Miller", "Joann Miller"),
        ("Daan Dekker ", "Daan Dekker"),
    ),
    *_same(
        "punctuation",
        ("Jan Willem Smit", "Jan-Willem Smit"),
        ("Sean OBrien", "Sean O'Brien"),
        ("Sean O’Brien", "Sean O'Brien"),
        ("Hans-Peter Schulz", "Hans Peter Schulz"),
        ("Jean Pierre Dubois", "Jean-Pierre Dubois"),
        ("Anil DSouza", "Anil D'Souza"),
        ("Ruben de Jong.", "Ruben de Jong"),
        ("Lotte_Kok", "Lotte Kok"),
        ("Emma Louise Hart", "Emma-Louise Hart"),
        ("Mohammed Al Hassan", "Mohammed Al-Hassan"),
    ),
    *_same(
        "accents",
        ("Hans Muller", "Hans Müller"),
        ("Klaus Mueller", "Klaus Müller"),
        ("Jurgen Schafer", "Jürgen Schäfer"),
        ("Juergen Schaefer", "Jürgen Schäfer"),
        ("Soren Jorgensen", "Søren Jørgensen"),
        ("Francois Lefevre", "François Lefèvre"),
        ("Jose Garcia", "José García"),
        ("Lukasz Kowalski", "Łukasz Kowalski"),
        ("Bjorn Ostergaard", "Bjørn Østergaard"),
        ("Dominik Dvorak", "Dominik Dvořák"),
        ("Renee Dubois", "Renée Dubois"),
        ("Gunther Gross", "Günther Groß"),
        ("Istvan Kovacs", "István Kovács"),
        ("Ozgur Yilmaz", "Özgür Yılmaz"),
    ),
    *_same(
        "cyrillic",
        ("Иван Петров", "Ivan Petrov"),
        ("Александр Иванов", "Alexander Ivanov"),
        ("Дмитрий Смирнов", "Dmitry Smirnov"),
        ("Сергей Кузнецов", "Sergei Kuznetsov"),
        ("Екатерина Волкова", "Ekaterina Volkova"),
        ("Юрий Соколов", "Yuri Sokolov"),
        ("Наталья Попова", "Natalia Popova"),
        ("Михаил Таль", "Mikhail Tal"),
        ("Olga Morozova", "Ольга Морозова"),
        ("Andrei Volkov", "Андрей Волков"),
        ("Евгений Свешников", "Evgeny Sveshnikov"),
        ("Ivanov, Alexei", "Алексей Иванов"),
        ("Владимир Крамник", "Vladimir Kramnik"),
        ("Жанна Лебедева", "Zhanna Lebedeva"),
        ("Щербаков Юрий", "Yuri Shcherbakov"),
        ("Алёна Кузнецова", "Alena Kuznetsova"),
    ),
    *_same(
        "devanagari",
        ("अमित पटेल", "Amit Patel"),
        ("राहुल शर्मा", "Rahul Sharma"),
        ("प्रिया शर्मा", "Priya Sharma"),
        ("विकास गुप्ता", "Vikas Gupta"),
        ("सुनील कुमार", "Sunil Kumar"),
        ("नेहा सिंह", "Neha Singh"),
        ("दीपक वर्मा", "Deepak Verma"),
        ("अनिल जोशी", "Anil Joshi"),
        ("संजय मेहता", "Sanjay Mehta"),
        ("अर्जुन रेड्डी", "Arjun Reddy"),
        ("Anand Rao", "आनंद राव"),
        ("कविता नायर", "Kavita Nair"),
        ("पूजा पटेल", "Pooja Patel"),
        ("प्रज्ञानानंद रमेशबाबू", "Praggnanandhaa Rameshbabu"),
    ),
    *_same(
        "swapped_order",
        ("Smith, John", "John Smith"),
        ("Bakker, Pieter", "Pieter Bakker"),
        ("Kowalski Lukasz", "Łukasz Kowalski"),
        ("Petrov Ivan", "Ivan Petrov"),
        ("Visser Sanne", "Sanne Visser"),
        ("Carlsen, Magnus", "Magnus Carlsen"),
        ("Wong, Mei Ling", "Mei Ling Wong"),
        ("Nakamura Hikaru", "Hikaru Nakamura"),
        ("Garcia, Jose", "José García"),
        ("Brown, Oliver", "Oliver Brown"),
        ("Evgeny Kardashevskiy", "Kardashevskiy Evgeny"),
        ("Dekker, Daan", "Daan Dekker"),
        ("Smith, John Michael", "John Michael Smith"),
    ),
    *_same(
        "particles",
        ("Vries, Emma de", "Emma de Vries"),
        ("de Vries, Emma", "Emma de Vries"),
        ("Berg, Jan van den", "Jan van den Berg"),
        ("Jan v.d. Berg", "Jan van den Berg"),
        ("Jan Vandenberg", "Jan van den Berg"),
        ("Lucas Dijk", "Lucas van Dijk"),
        ("Dijk, Lucas van", "Lucas van Dijk"),
        ("Stein, Karl von", "Karl von Stein"),
        ("Maria Silva", "Maria da Silva"),
        ("Sara Terhorst", "Sara ter Horst"),
        ("Tom van de Meer", "Tom van der Meer"),
        ("Lucia Dimarco", "Lucia Di Marco"),
        ("Luc Leroux", "Luc Le Roux"),
        ("Kees vd Meer", "Kees van der Meer"),
        ("Rosa, Anna della", "Anna della Rosa"),
        ("Pieter Hart", "Pieter 't Hart"),
        ("Vandermeer, Kees", "Kees van der Meer"),
    ),
    *_same(
        "titles",
        ("GM Magnus Carlsen", "Magnus Carlsen"),
        ("GM Jan Timman", "Jan Timman"),
        ("Dr. Anna Meijer", "Anna Meijer"),
        ("Prof. Dr. Klaus Müller", "Klaus Müller"),
        ("Mr. Oliver Brown", "Oliver Brown"),
        ("Mrs. Sarah Johnson", "Sarah Johnson"),
        ("WFM Sanne Visser", "Sanne Visser"),
        ("FM Ruben de Jong", "Ruben de Jong"),
        ("Carlsen, Magnus (NOR)", "Magnus Carlsen"),
        ("CM Tim de Wit", "Tim de Wit"),
        ("Shri Vikas Gupta", "Vikas Gupta"),
        ("Ms. Priya Sharma", "Priya Sharma"),
        ("drs. Pieter Bakker", "Pieter Bakker"),
        ("Nakamura, Hikaru GM", "Hikaru Nakamura"),
    ),
    *_same(
        "initials",
        ("E. de Vries", "Emma de Vries"),
        ("E. de Vries", "Eva de Vries"),
        ("P. Bakker", "Pieter Bakker"),
        ("J. van den Berg", "Jan van den Berg"),
        ("M. Carlsen", "Magnus Carlsen"),
        ("Smith, E.", "Emily Smith"),
        ("H. Müller", "Hans Müller"),
        ("A. Patel", "Amit Patel"),
        ("J.W. Smit", "Jan-Willem Smit"),
        ("I. Petrov", "Ivan Petrov"),
        ("S. Visser", "Sanne Visser"),
        ("T. Mulder", "Thomas Mulder"),
        ("Kowalski, Ł.", "Łukasz Kowalski"),
        ("D. Dekker", "Daan Dekker"),
        ("Sharma R.", "Rahul Sharma"),
        ("J. Smith", "John Smith"),
    ),
    *_same(
        "middle_names",
        ("Eline Meijer", "Eline Sophie Meijer"),
        ("Pieter Jan Bakker", "Pieter Bakker"),
        ("Hans Schulz", "Hans Peter Schulz"),
        ("Maria Rossi", "Maria Elena Rossi"),
        ("Jan de Groot", "Jan Hendrik de Groot"),
        ("Sarah Anne Johnson", "Sarah Johnson"),
        ("Rahul Kumar Sharma", "Rahul Sharma"),
        ("Alexander Sergeyevich Ivanov", "Alexander Ivanov"),
        ("Thomas J. Mulder", "Thomas Mulder"),
        ("Ivan Ivanovich Petrov", "Ivan Petrov"),
        ("Emily R. Smith", "Emily Smith"),
        ("Lucas Johannes van Dijk", "Lucas van Dijk"),
        ("Oliver James Brown", "Oliver Brown"),
    ),
    *_same(
        "typos",
        ("Magnus Carlsne", "Magnus Carlsen"),
        ("Jon Smith", "John Smith"),
        ("Pieter Baker", "Pieter Bakker"),
        ("Sanne Viser", "Sanne Visser"),
        ("Thomas Mudler", "Thomas Mulder"),
        ("Hikaru Nakamrua", "Hikaru Nakamura"),
        ("Emma de Vires", "Emma de Vries"),
        ("Daan Dekkr", "Daan Dekker"),
        ("Ruben de Jonge", "Ruben de Jong"),
        ("Lucas van Dyk", "Lucas van Dijk"),
        ("Oliver Browne", "Oliver Brown"),
        ("Sarah Jonson", "Sarah Johnson"),
        ("Ivan Petorv", "Ivan Petrov"),
        ("Fleur de Grot", "Fleur de Groot"),
        ("Amit Patle", "Amit Patel"),
        ("Noah Petres", "Noah Peters"),
        ("Jonh Smiht", "John Smith"),
        ("Pietre Bakker", "Pieter Bakker"),
    ),
    *_same(
        "nicknames",
        ("Bob Smith", "Robert Smith"),
        ("Wim Jansen", "Willem Jansen"),
        ("Hans de Boer", "Johannes de Boer"),
        ("Jan Visser", "Johannes Visser"),
        ("Sasha Ivanov", "Alexander Ivanov"),
        ("Kees Smit", "Cornelis Smit"),
        ("Rick Jansen", "Richard Jansen"),
        ("Mike Brown", "Michael Brown"),
        ("Liz Taylor", "Elizabeth Taylor"),
        ("Henk Bakker", "Hendrik Bakker"),
        ("Misha Kuznetsov", "Mikhail Kuznetsov"),
        ("Tony Rossi", "Antonio Rossi"),
        ("Katja Müller", "Katharina Müller"),
        ("Dima Smirnov", "Dmitry Smirnov"),
        ("Jaap de Jong", "Jacob de Jong"),
        ("Bobby Smyth", "Robert Smyth"),
    ),
    *_same(
        "suffixes",
        ("John Smith Jr", "John Smith Jr."),
        ("Smith Jr., John", "John Smith Jr."),
        ("Robert Brown Sr.", "Robert Brown Sr"),
        ("Henry Ford II", "Henry Ford II"),
        ("Bakker jr., Pieter", "Pieter Bakker jr."),
        ("Hans Müller sr.", "Hans Müller Sr."),
    ),
    *_different(
        "siblings",
        ("Eva de Vries", "Emma de Vries"),
        ("Emma de Vries", "Eva de Vries"),
        ("Anna Müller", "Hanna Müller"),
        ("Jan Jansen", "Jaap Jansen"),
        ("Daan Dekker", "Dana Dekker"),
        ("Mark Visser", "Marc Visser"),
        ("Amit Patel", "Anil Patel"),
        ("Ivan Ivanov", "Igor Ivanov"),
        ("Tim de Wit", "Tom de Wit"),
        ("Ruben de Jong", "Ruud de Jong"),
        ("E. de Vries", "Emma de Vries"),
        ("E. de Vries", "Eva de Vries"),
    ),
    *_different(
        "father_son",
        ("John Smith Jr.", "John Smith"),
        ("John Smith", "John Smith Jr."),
        ("John Smith Sr.", "John Smith Jr."),
        ("Robert Brown Jr.", "Robert Brown Sr"),
        ("Robert Brown", "Robert Brown Sr"),
        ("Henry Ford III", "Henry Ford II"),
        ("Pieter Bakker jr.", "Pieter Bakker"),
        ("Hans Müller Jr.", "Hans Müller"),
        ("Hans Müller jr.", "Hans Müller Sr."),
        ("Ivan Petrov II", "Ivan Petrov"),
        ("Smith, John, Jr.", "John Smith"),
    ),
    *_different(
        "common_surname",
        ("Jane Smith", "John Smith"),
        ("Emily Smith", "Emma Smith"),
        ("Piet Jansen", "Pieter Jansen"),
        ("Klaus Müller", "Thomas Müller"),
        ("Ravi Patel", "Rahul Patel"),
        ("Sergei Ivanov", "Alexander Ivanov"),
        ("Anjali Patel", "Amit Patel"),
        ("Kees Jansen", "Karin Jansen"),
        ("Petra Müller", "Peter Müller"),
        ("Olga Ivanova", "Oleg Ivanov"),
        ("Robert Smith", "Robert Smyth"),
        ("Johan Jansen", "Johannes Jansen"),
        ("Neha Patel", "Neha Shah"),
        ("Sanjay Patel", "Sanjay Mehta"),
    ),
    *_different(
        "newcomers",
        ("Jan Bakker", "Jan Baker"),
        ("Ivana Petrova", "Ivan Petrov"),
        ("Mark de Vries", "Marc de Vries"),
        ("Lucas van Dijken", "Lucas van Dijk"),
        ("Emma Smits", "Emma Smit"),
        ("Hans Mulder", "Hans Müller"),
        ("Priya Shah", "Priya Sharma"),
        ("Carl Magnusson", "Magnus Carlsen"),
    ),
]

OTHER_MEMBERS = [
    # More Smiths, Jansens, Müllers, Patels and Ivanovs, and a club's ordinary spread.
    "John Michael Smith", "Oliver Smith", "Grace Smith", "Harry Smith", "Jack Smith",
    "Jan Jansen", "Johan Jansen", "Henk Jansen", "Sanne Jansen", "Mark Jansen", "Maria Jansen",
    "Thomas Müller", "Peter Müller", "Sabine Müller", "Lukas Müller", "Anna Müller",
    "Anjali Patel", "Ravi Patel", "Rahul Patel", "Neha Patel", "Kiran Patel", "Sanjay Patel",
    "Sergei Ivanov", "Olga Ivanova", "Ivan Ivanov", "Pavel Ivanov", "Natalia Ivanova",
    "Dmitri Ivanov", "Mila de Vries", "Marc de Vries", "Sem de Vries",
    "Lotte Bakker", "Fenna Bakker", "Bram de Jong", "Ruud de Jong", "Anouk de Jong",
    "Jesse van den Berg", "Sophie van den Berg", "Thijs van der Meer", "Iris van der Meer",
    "Lieke van Dijk", "Koen van Dijk", "Sven Visser", "Mark Visser", "Julia Visser",
    "Femke Mulder", "Ties Mulder", "Milan Dekker", "Roos Dekker", "Jip Smit",
    "Eva Smit", "Emma Smit", "Noor Smit", "Bas Meijer", "Luuk Meijer", "Tess Meijer",
    "Gijs de Boer", "Lisa de Boer", "Finn de Boer", "Stijn de Groot", "Nina de Groot",
    "Hugo Peters", "Isa Peters", "Floor Bos", "Levi Bos", "Sara Bos", "Max de Wit",
    "Yara de Wit", "Olivia Brown", "Jacob Brown", "Ava Johnson", "Liam Johnson", "Chloe Taylor",
    "Daniel Taylor", "Luca Rossi", "Giulia Rossi", "Marco Bianchi", "Sofia Romano",
    "Pierre Dubois", "Camille Martin", "Lucas Bernard", "Léa Moreau", "Jürgen Klein",
    "Monika Schmidt", "Stefan Schneider", "Katrin Fischer", "Michael Weber", "Julia Wagner",
    "Tobias Becker", "Magdalena Nowak", "Piotr Wiśniewski", "Katarzyna Wójcik",
    "Tomasz Kamiński", "Jana Nováková", "Petr Svoboda", "Lars Andersen", "Ingrid Hansen",
    "Erik Nilsson", "Astrid Lindqvist", "Mikael Virtanen", "Aino Korhonen", "Mehmet Demir",
    "Ayşe Kaya", "Fatma Çelik", "Ahmed Hassan", "Fatima El Amrani", "Youssef Benali",
    "Wei Zhang", "Li Na Wang", "Hiroshi Tanaka", "Yuki Sato", "Min-jun Kim", "Ji-woo Park",
    "Thanh Nguyen", "Linh Tran", "Arjun Nair", "Lakshmi Iyer", "Venkat Reddy", "Suresh Kumar",
    "Ramesh Gupta", "Kavya Joshi", "Ananya Singh", "Rohan Verma", "Ishaan Mehta",
    "Carlos Fernández", "Lucía Martínez", "Javier López", "João Silva", "Ana Costa",
    "Miguel Santos", "Nikos Papadopoulos", "Eleni Georgiou", "Andrei Popescu",
    "Elena Dumitru", "Tamar Cohen", "Noam Levi", "Siobhan Murphy", "Aoife Kelly",
    "Callum MacLeod", "Rhys Jones", "Megan Davies", "Owen Williams", "Bethany Evans",
    "Dmitry Kuznetsov", "Anastasia Smirnova", "Yuri Petrov", "Tatiana Sokolova",
    "Mikhail Popov", "Irina Volkova", "Boris Lebedev",
]  # fmt: skip

ROSTER: list[str] = sorted({case.roster_name for case in CASES} | set(OTHER_MEMBERS))


@dataclass(frozen=True)
class Outcome:
    case: Case
    rank: int | None  # 1-based position of the roster name among the suggestions
    preselected: str | None  # the roster name preselected, if any

    @property
    def true_preselect(self) -> bool:
        return self.preselected == self.case.roster_name


@dataclass(frozen=True)
class CategoryScore:
    category: str
    same: bool
    cases: int
    top1: int
    top3: int
    preselected: int  # same-person: the roster name preselected; different: falsely preselected
    any_preselect: int  # cases where some name was preselected

    @property
    def preselect_precision(self) -> float | None:
        return self.preselected / self.any_preselect if self.any_preselect else None


Suggester = Callable[[str], Sequence[Suggestion]]


def run(suggester: Suggester, roster: Sequence[str] = ROSTER) -> list[Outcome]:
    outcomes = []
    for case in CASES:
        found = suggester(case.typed)
        names = [roster[suggestion.index] for suggestion in found]
        chosen = [roster[suggestion.index] for suggestion in found if suggestion.preselect]
        rank = names.index(case.roster_name) + 1 if case.roster_name in names else None
        outcomes.append(Outcome(case, rank, chosen[0] if chosen else None))
    return outcomes


def score_by_category(outcomes: Sequence[Outcome]) -> list[CategoryScore]:
    categories = list(dict.fromkeys(outcome.case.category for outcome in outcomes))
    scores = []
    for category in categories:
        mine = [outcome for outcome in outcomes if outcome.case.category == category]
        scores.append(
            CategoryScore(
                category=category,
                same=mine[0].case.same,
                cases=len(mine),
                top1=sum(outcome.rank == 1 for outcome in mine),
                top3=sum(outcome.rank is not None and outcome.rank <= 3 for outcome in mine),
                preselected=sum(outcome.true_preselect for outcome in mine),
                any_preselect=sum(outcome.preselected is not None for outcome in mine),
            )
        )
    return scores


def table(scores: Sequence[CategoryScore]) -> str:
    """The measures as a Markdown table."""
    lines = [
        "| category | kind | cases | top-1 recall | top-3 recall | preselect recall "
        "| preselect precision | false preselects |",
        "|---|---|---:|---:|---:|---:|---:|---:|",
    ]

    def share(part: int, whole: int) -> str:
        return f"{part / whole:.0%}" if whole else "–"

    for row in scores:
        precision = row.preselect_precision
        if row.same:
            cells = [
                share(row.top1, row.cases),
                share(row.top3, row.cases),
                share(row.preselected, row.cases),
                "–" if precision is None else f"{precision:.0%}",
                "–",
            ]
        else:
            cells = ["–", "–", "–", "–", str(row.preselected)]
        kind = "same person" if row.same else "different"
        lines.append(f"| {row.category} | {kind} | {row.cases} | " + " | ".join(cells) + " |")
    same = [row for row in scores if row.same]
    different = [row for row in scores if not row.same]
    cases = sum(row.cases for row in same)
    chosen = sum(row.any_preselect for row in same)
    lines.append(
        f"| **all** | same person | {cases} "
        f"| {share(sum(row.top1 for row in same), cases)} "
        f"| {share(sum(row.top3 for row in same), cases)} "
        f"| {share(sum(row.preselected for row in same), cases)} "
        f"| {share(sum(row.preselected for row in same), chosen)} | – |"
    )
    lines.append(
        f"| **all** | different | {sum(row.cases for row in different)} | – | – | – | – "
        f"| {sum(row.preselected for row in different)} |"
    )
    return "\n".join(lines)
