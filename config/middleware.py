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

        from config.forms import REFUSED, FormInputError

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
