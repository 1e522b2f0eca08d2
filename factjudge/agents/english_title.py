"""The title the English Wikipedia gives a Spanish or French article's subject, asked of the model.

The packaged Spanish and French leads often say less than the English one (French *Canada* never
names its capital), and an article whose English title is another word (*Brésil*, *Primera Guerra
Mundial*) is linked to it by no name both leads share. Asked to translate the title, the embedded
judge gave an English title the packaged summaries hold, or a name its lead gives, for 28 of 30 titles
picked by hand and none wrong; of 40 such articles drawn at random it linked 15, one wrongly (*Méthanal*
to *Methanol*). The reader keeps the answer only when it names an English article as surely as a title
does.
"""

from __future__ import annotations

from factjudge.agents.calling import ask
from factjudge.agents.translate import language_name
from factjudge.errors import ParseError
from factjudge.llm.base import ChatModel, GenerationParams
from factjudge.prompts import fence, load_prompt

PROMPT = "english_title"
# A title is a few words: a longer reply is no title.
MAX_TOKENS = 24
_MAX_CHARS = 100


def parse_title(reply: str) -> str:
    """The title a reply gives: its first line without quotes or a full stop; ParseError if none."""
    lines = [line for line in reply.strip().splitlines() if line.strip()]
    title = lines[0].strip().rstrip(".").strip("\"'“”«»* ").rstrip(".").strip() if lines else ""
    if not title or len(title) > _MAX_CHARS:
        raise ParseError("the reply gives no title" if not title else "the reply is longer than a title")
    return title


def english_title(model: ChatModel, title: str, language: str) -> str | None:
    """The English Wikipedia's title for the subject of the ``language`` article ``title``, or None
    when no reply could be read."""
    params = GenerationParams(max_tokens=MAX_TOKENS, stop=("\n",))
    values = {"language": language_name(language), "title": fence("title", title)}
    asked = ask(model, load_prompt(PROMPT), values, params, parse_title, step="english_title")
    return asked.value
