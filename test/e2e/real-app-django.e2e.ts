/**
 * Real tasks on Django's admin (Debian's python3-django, installed by this test when missing) over
 * a small library catalogue: the agent with a scripted model that reads each snapshot for its
 * targets, checked in the database.
 */
import { startDjangoAdmin } from '../support/real-apps/django-admin';
import { DJANGO_TASKS } from '../support/real-apps/django-tasks';
import { describeAppTasks } from './support/real-app-suite';

describeAppTasks('Django admin tasks', startDjangoAdmin, DJANGO_TASKS);
