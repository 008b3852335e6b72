from django.conf import settings
from django.http import JsonResponse


class BodySizeLimitMiddleware:
    """Refuse request bodies over MAX_REQUEST_BODY with 413 before anything parses them."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        try:
            length = int(request.META.get("CONTENT_LENGTH") or 0)
        except ValueError:
            length = 0
        if length > settings.MAX_REQUEST_BODY:
            return JsonResponse(
                {
                    "detail": f"Request body is {length} bytes; the limit is {settings.MAX_REQUEST_BODY}.",
                    "errors": [],
                },
                status=413,
            )
        return self.get_response(request)
