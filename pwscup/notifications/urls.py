from django.urls import path

from pwscup.notifications import views

urlpatterns = [
    path("", views.notification_list, name="notification_list"),
    path("<int:pk>/open", views.notification_open, name="notification_open"),
    path("read", views.notifications_read_all, name="notifications_read_all"),
]
