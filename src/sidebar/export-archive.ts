/**
 * The whole archive as JSON, read by the sidebar itself from the extension's database (its origin
 * is the background's). Sent by the background instead, a 51 MB archive took ~0.8 s more: the port
 * copied every part, and Chromium's port JSON-encoded the JSON once more. Loaded only on export.
 */
import { exportArchive } from '../db/archive';
import { JawadDatabase } from '../db/database';

export async function archiveText(): Promise<string> {
  // A connection of its own, closed after: the panel holds none open that a later upgrade must wait for.
  const db = new JawadDatabase();
  try {
    return JSON.stringify(await exportArchive(db));
  } finally {
    db.close();
  }
}
