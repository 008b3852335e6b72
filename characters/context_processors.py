def navigation(request):
    """Values every page's navigation needs (the GM's pending-review badge is added by advancement)."""
    return {}
