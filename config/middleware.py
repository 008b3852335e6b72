from django.conf import settings
from django.http import HttpResponse, JsonResponse


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


class ApplicationErrorMiddleware:
    """A service's refusal that a page view does not show inline becomes its HTTP status here,
    the one place pages map them (the API's is ``config.api.exception_handler``): a plain page,
    or for htmx a fragment, with the refusal's sentence. ``NotPermitted`` is left to Django (403)."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        return self.get_response(request)

    def process_exception(self, request, exception):
        from django.core.exceptions import PermissionDenied
        from django.template.loader import render_to_string

        from characters.errors import ApplicationError

        if not isinstance(exception, ApplicationError) or isinstance(exception, PermissionDenied):
            return None
        if request.path.startswith("/api/"):
            return JsonResponse({"detail": exception.message, "errors": exception.errors}, status=exception.status_code)
        template = "_refusal.html" if getattr(request, "htmx", False) else "refusal.html"
        html = render_to_string(template, {"message": exception.message}, request=request)
        return HttpResponse(html, status=exception.status_code)
