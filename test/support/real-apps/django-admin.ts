/**
 * Django's admin (Debian's python3-django, 3.2) over a small library catalogue, a fresh project per
 * start: its own settings, SQLite database and superuser in a temporary folder, on Django's
 * development server. The catalogue's models are a few lines of ours; every page, form and widget
 * the tasks use is Django's own: the change list with its filters, search and actions menu, an
 * autocomplete (Select2) for a book's author, a two-list picker for its genres, a date field with
 * its calendar shortcuts, inline rows added by script, and the delete confirmation. Its state is
 * the database.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RealApp } from './app-task';
import { DEBIAN_PYTHON, ensurePackages } from './debian';
import { freePort } from '../ports';
import { startServerProcess, waitUntilServing } from './server-process';

export const DJANGO_ADMIN = { user: 'librarian', password: 'Jawad-admin-pass-3' };

export interface DjangoAdmin extends RealApp {
  /** Rows of a query on the database, each a list of its columns' values. */
  query(sql: string): unknown[][];
}

const SETTINGS = (dir: string) => `
SECRET_KEY = 'jawad-test-only'
DEBUG = True
ALLOWED_HOSTS = ['127.0.0.1', 'localhost']
INSTALLED_APPS = ['django.contrib.admin', 'django.contrib.auth', 'django.contrib.contenttypes', 'django.contrib.sessions', 'django.contrib.messages', 'django.contrib.staticfiles', 'library']
MIDDLEWARE = ['django.middleware.security.SecurityMiddleware', 'django.contrib.sessions.middleware.SessionMiddleware', 'django.middleware.common.CommonMiddleware', 'django.middleware.csrf.CsrfViewMiddleware', 'django.contrib.auth.middleware.AuthenticationMiddleware', 'django.contrib.messages.middleware.MessageMiddleware', 'django.middleware.clickjacking.XFrameOptionsMiddleware']
ROOT_URLCONF = 'urls'
TEMPLATES = [{'BACKEND': 'django.template.backends.django.DjangoTemplates', 'DIRS': [], 'APP_DIRS': True, 'OPTIONS': {'context_processors': ['django.template.context_processors.debug', 'django.template.context_processors.request', 'django.contrib.auth.context_processors.auth', 'django.contrib.messages.context_processors.messages']}}]
DATABASES = {'default': {'ENGINE': 'django.db.backends.sqlite3', 'NAME': '${dir}/library.sqlite3'}}
DEFAULT_AUTO_FIELD = 'django.db.models.AutoField'
USE_TZ = True
TIME_ZONE = 'UTC'
LANGUAGE_CODE = 'en-us'
STATIC_URL = '/static/'
`;

const URLS = `
from django.contrib import admin
from django.urls import path
urlpatterns = [path('admin/', admin.site.urls)]
`;

const MODELS = `
from django.db import models

class Author(models.Model):
    name = models.CharField(max_length=100)
    def __str__(self):
        return self.name

class Genre(models.Model):
    name = models.CharField(max_length=50)
    def __str__(self):
        return self.name

class Book(models.Model):
    STATUSES = [('draft', 'Draft'), ('available', 'Available'), ('lent', 'Lent')]
    title = models.CharField(max_length=200)
    author = models.ForeignKey(Author, on_delete=models.CASCADE)
    published = models.DateField(null=True, blank=True)
    genres = models.ManyToManyField(Genre, blank=True)
    status = models.CharField(max_length=10, choices=STATUSES, default='draft')
    def __str__(self):
        return self.title

class Loan(models.Model):
    book = models.ForeignKey(Book, on_delete=models.CASCADE)
    borrower = models.CharField(max_length=100)
    due = models.DateField()
`;

const ADMIN = `
from django.contrib import admin
from .models import Author, Book, Genre, Loan

@admin.register(Author)
class AuthorAdmin(admin.ModelAdmin):
    search_fields = ['name']

@admin.register(Genre)
class GenreAdmin(admin.ModelAdmin):
    pass

class LoanInline(admin.TabularInline):
    model = Loan
    extra = 0

@admin.action(description='Mark selected books as available')
def make_available(modeladmin, request, queryset):
    queryset.update(status='available')

@admin.register(Book)
class BookAdmin(admin.ModelAdmin):
    list_display = ['title', 'author', 'status', 'published']
    list_filter = ['status', 'genres']
    search_fields = ['title']
    autocomplete_fields = ['author']
    filter_horizontal = ['genres']
    inlines = [LoanInline]
    actions = [make_available]
`;

/** The catalogue the tasks start from. */
const SEED = `
import datetime
from library.models import Author, Book, Genre
# More authors than the author box's first page of options (20): some are found only by typing.
for number in range(1, 31):
    Author.objects.create(name=f'Staff Writer {number:02}')
herbert = Author.objects.create(name='Frank Herbert')
le_guin = Author.objects.create(name='Ursula K. Le Guin')
Author.objects.create(name='Anonymous Draftsman')
for name in ['Science fiction', 'Fantasy', 'Poetry', 'History']:
    Genre.objects.create(name=name)
Book.objects.create(title='A Wizard of Earthsea', author=le_guin, status='lent', published=datetime.date(1968, 11, 1))
Book.objects.create(title='The Left Hand of Darkness', author=le_guin, status='draft', published=datetime.date(1969, 3, 1))
Book.objects.create(title='The Dispossessed', author=le_guin, status='lent', published=datetime.date(1974, 5, 1))
Book.objects.create(title='Children of Dune', author=herbert, status='draft', published=datetime.date(1976, 4, 1))
`;

function writeProject(dir: string): void {
  writeFileSync(join(dir, 'settings.py'), SETTINGS(dir));
  writeFileSync(join(dir, 'urls.py'), URLS);
  mkdirSync(join(dir, 'library'));
  writeFileSync(join(dir, 'library', '__init__.py'), '');
  writeFileSync(join(dir, 'library', 'models.py'), MODELS);
  writeFileSync(join(dir, 'library', 'admin.py'), ADMIN);
  writeFileSync(join(dir, 'manage.py'), "import sys\nfrom django.core.management import execute_from_command_line\nexecute_from_command_line(sys.argv)\n");
}

export async function startDjangoAdmin(): Promise<DjangoAdmin> {
  ensurePackages(['python3-django']);
  const dir = mkdtempSync(join(tmpdir(), 'jawad-django-'));
  writeProject(dir);
  const env = { ...process.env, DJANGO_SETTINGS_MODULE: 'settings', PYTHONPATH: dir, PYTHONNOUSERSITE: '1', DJANGO_SUPERUSER_PASSWORD: DJANGO_ADMIN.password };
  const manage = (...args: string[]) => execFileSync(DEBIAN_PYTHON, [join(dir, 'manage.py'), ...args], { cwd: dir, env, stdio: 'pipe', timeout: 120_000 });
  manage('makemigrations', 'library');
  manage('migrate');
  manage('createsuperuser', '--noinput', '--username', DJANGO_ADMIN.user, '--email', 'librarian@example.com');
  manage('shell', '-c', SEED);
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const server = await startServerProcess(DEBIAN_PYTHON, [join(dir, 'manage.py'), 'runserver', `127.0.0.1:${port}`, '--noreload'], { DJANGO_SETTINGS_MODULE: 'settings', PYTHONPATH: dir, PYTHONNOUSERSITE: '1' }, (child) => waitUntilServing(`${url}/admin/login/`, child, 60_000));
  const database = join(dir, 'library.sqlite3');
  return {
    url,
    query: (sql) => JSON.parse(execFileSync(DEBIAN_PYTHON, ['-c', 'import json, sqlite3, sys; print(json.dumps(sqlite3.connect(sys.argv[1]).execute(sys.argv[2]).fetchall()))', database, sql], { encoding: 'utf8' })) as unknown[][],
    async stop() {
      await server.stop();
      rmSync(dir, { recursive: true, force: true, maxRetries: 5 });
    },
  };
}
