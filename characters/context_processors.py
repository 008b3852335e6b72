from characters.advancement.selectors import review_badge


def navigation(request):
    """Values every page's navigation needs: the GM's pending-review badge (one query, GMs only)."""
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated:
        return {}

    return review_badge(user=user)
