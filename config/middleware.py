import io

from django.conf import settings
from django.contrib.messages.middleware import MessageMiddleware as DjangoMessageMiddleware
from django.contrib.messages.storage import default_storage
from django.core.handlers.asgi import ASGIRequest
from django.http import JsonResponse
from django.utils.functional import SimpleLazyObject, empty

from config.errors import ApplicationError
from config.forms import REFUSED, FormInputError


def _too_large(detail: str) -> JsonResponse:
    return JsonResponse({"detail": detail, "errors": []}, status=413)


class BodySizeLimitMiddleware:
    """Refuse request bodies over MAX_REQUEST_BODY with 413 before anything parses them.

    A body sent without a Content-Length (``Transfer-Encoding: chunked``) is counted too: it is read
    here, at most one byte past the limit, and handed on with its length, so that Django's and
    DRF's parsers (which take a missing length for an empty body) read it as it was sent."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        limit = settings.MAX_REQUEST_BODY
        declared = request.META.get("CONTENT_LENGTH")
        if declared in (None, ""):
            stream = self._unframed_body(request)
            if stream is not None:
                body = stream.read(limit + 1)
                if len(body) > limit:
                    return _too_large(f"Request body is over {limit} bytes; the limit is {limit}.")
                request._stream = io.BytesIO(body)
                request.META["CONTENT_LENGTH"] = str(len(body))
            return self.get_response(request)
        try:
            length = int(declared)
        except ValueError:
            length = 0
        if length > limit:
            return _too_large(f"Request body is {length} bytes; the limit is {limit}.")
        return self.get_response(request)

    @staticmethod
    def _unframed_body(request):
        """The raw body stream of a request that gave no Content-Length, when it may have a body:
        under ASGI the server has already received it (a file); under WSGI only a chunked request
        has one (its server ends the stream where the chunks end)."""
        if isinstance(request, ASGIRequest):
            return request._stream
        if "chunked" in request.META.get("HTTP_TRANSFER_ENCODING", "").lower():
            return request.META.get("wsgi.input")
        return None


class FormInputErrorMiddleware:
    """A ``config.forms.FormInputError`` out of any HTML view becomes a 400 that shows why.

    Views read their input (after the access check) with the helpers of config/forms.py and need
    no error path of their own: nothing has been written when one of them refuses. A plain POST
    gets a page with the message and a way back; htmx gets the message as the page's #messages
    block (HX-Retarget), which base.html's htmx config swaps even on a 400."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        return self.get_response(request)

    def process_exception(self, request, exception):
        from django.shortcuts import render
        from django.utils.http import url_has_allowed_host_and_scheme

        if not isinstance(exception, FormInputError):
            return None
        message = str(exception)
        if message and message[-1] not in ".!?":
            message += "."
        message = message[:1].upper() + message[1:]
        back = request.META.get("HTTP_REFERER", "")
        if not url_has_allowed_host_and_scheme(back, {request.get_host()}, request.is_secure()):
            back = request.path
        context = {"message": message, "back_url": back}
        if getattr(request, "htmx", False):
            response = render(request, "form_refused.html#refusal", context, status=REFUSED)
            response["HX-Retarget"] = "#messages"
            response["HX-Reswap"] = "outerHTML"
            return response
        return render(request, "form_refused.html", context, status=REFUSED)


class ApplicationErrorMiddleware:
    """A service's refusal (``config.errors.ApplicationError``) that a page view does not show
    inline becomes its HTTP status here, the one place pages map them (the API's is
    ``config.api.exception_handler``), shown as a refused form is (form_refused.html): a page
    with the sentence and a way back, or for htmx the page's #messages block. ``NotPermitted`` is
    left to Django (its 403 page)."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        return self.get_response(request)

    def process_exception(self, request, exception):
        from django.core.exceptions import PermissionDenied
        from django.shortcuts import render
        from django.utils.http import url_has_allowed_host_and_scheme

        if not isinstance(exception, ApplicationError) or isinstance(exception, PermissionDenied):
            return None
        if request.path.startswith("/api/"):
            return JsonResponse(
                {"detail": exception.message, "errors": exception.errors}, status=exception.status_code
            )
        back = request.META.get("HTTP_REFERER", "")
        if not url_has_allowed_host_and_scheme(back, {request.get_host()}, request.is_secure()):
            back = request.path
        context = {"message": exception.message, "back_url": back}
        if getattr(request, "htmx", False):
            response = render(request, "form_refused.html#refusal", context, status=exception.status_code)
            response["HX-Retarget"] = "#messages"
            response["HX-Reswap"] = "outerHTML"
            return response
        return render(request, "form_refused.html", context, status=exception.status_code)


class MessageMiddleware(DjangoMessageMiddleware):
    """django.contrib.messages' middleware, its storage made when first used rather than for every
    request. Making it (a cookie signer and the session's storage) costs ~20 µs, which API calls,
    /static/ misses and most htmx updates never use; a storage never used has nothing to store,
    so its response is left as it is (Django's ``update`` would change nothing either)."""

    def process_request(self, request):
        request._messages = SimpleLazyObject(lambda: default_storage(request))

    def process_response(self, request, response):
        messages = getattr(request, "_messages", None)
        if isinstance(messages, SimpleLazyObject) and messages._wrapped is empty:
            return response
        return super().process_response(request, response)
