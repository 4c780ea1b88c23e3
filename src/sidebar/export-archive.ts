/**
 * The whole archive as a file, read by the sidebar itself from the extension's database (its origin
 * is the background's). Sent by the background instead, a 51 MB archive took ~0.8 s more: the port
 * copied every part, and Chromium's port JSON-encoded the JSON once more. Each piece becomes a Blob
 * as soon as it is text, while the database still reads the rest. Loaded only on export.
 */
import { exportArchivePieces } from '../db/archive';
import { JawadDatabase } from '../db/database';

export async function archiveFile(): Promise<Blob> {
  // A connection of its own, closed after: the panel holds none open that a later upgrade must wait for.
  const db = new JawadDatabase();
  try {
    return new Blob(await exportArchivePieces(db, (text) => new Blob([text])), { type: 'application/json' });
  } finally {
    db.close();
  }
}
