"""``{% odds_chart slug answer caption="…" %}``: the odds of a roll as an SVG bar chart."""

from __future__ import annotations

from django import template

from rulesets.charts import odds_bars

register = template.Library()


@register.inclusion_tag("rulesets/_odds_chart.html")
def odds_chart(slug: str, answer: dict, caption: str = "", chart_id: str = "odds-chart") -> dict:
    """Render ``answer`` (an odds answer of ``slug``) through ``rulesets/_odds_chart.html``."""
    return {"bars": odds_bars(slug, answer), "caption": caption, "chart_id": chart_id}
