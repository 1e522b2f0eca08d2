"""Labelled datasets as one ``Example`` type: FELM, Factbench, TRUE pairs, FActScore, Mu-SHROOM, RAGTruth,
tables.

Label convention everywhere: ``True`` = factual / consistent / supported, ``False`` = an
error, ``None`` = not labelled. Loaders read the files as the papers released them and
raise ``InputError`` naming the file and line of anything they cannot use.
"""

from __future__ import annotations

from factjudge.config import FELM_DOMAINS
from factjudge.eval.datasets.dispatch import dataset_files, dataset_hash, load_dataset, load_rows
from factjudge.eval.datasets.example import Example
from factjudge.eval.datasets.factbench import load_factbench
from factjudge.eval.datasets.factscore import load_factscore
from factjudge.eval.datasets.felm import load_felm
from factjudge.eval.datasets.mushroom import load_mushroom
from factjudge.eval.datasets.ragtruth import load_ragtruth
from factjudge.eval.datasets.reading import parse_label
from factjudge.eval.datasets.table import load_examples, load_table
from factjudge.eval.datasets.true_pairs import load_true_pairs

__all__ = ["FELM_DOMAINS", "Example", "dataset_files", "dataset_hash", "load_dataset", "load_examples",
           "load_factbench", "load_factscore", "load_felm", "load_mushroom", "load_ragtruth",
           "load_rows", "load_table",
           "load_true_pairs", "parse_label"]
