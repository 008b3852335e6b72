"""Plans' pages: a character's plans, a plan, a step in the builder, the owner's and the GM's actions."""

from django.urls import path

from characters.plans import views

urlpatterns = [
    path("characters/<int:character_id>/plans/", views.character_plans, name="character_plans"),
    path("characters/<int:character_id>/plans/new/", views.plan_new, name="plan_new"),
    path("plans/<int:plan_id>/", views.plan_detail, name="plan_detail"),
    path("plans/<int:plan_id>/steps/<int:n>/", views.plan_step, name="plan_step"),
    path("plans/<int:plan_id>/submit/", views.plan_submit, name="plan_submit"),
    path("plans/<int:plan_id>/approve/", views.plan_approve, name="plan_approve"),
    path("plans/<int:plan_id>/reject/", views.plan_reject, name="plan_reject"),
    path("plans/<int:plan_id>/delete/", views.plan_delete, name="plan_delete"),
]
