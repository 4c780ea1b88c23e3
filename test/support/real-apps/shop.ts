/**
 * The shop the database applications manage (Adminer over SQLite, phpMyAdmin over MariaDB): the
 * same customers and orders in both, in SQL either engine takes; each rig creates the tables in its
 * own dialect first.
 */
export const SHOP_ROWS = `
INSERT INTO customers (name, email, city) VALUES
  ('Ada Lovelace', 'ada@example.com', 'London'),
  ('Alan Turing', 'alan@example.com', 'Manchester'),
  ('Emmy Noether', 'emmy@example.com', 'Berlin'),
  ('Kurt Gödel', 'kurt@example.com', 'Vienna'),
  ('Lise Meitner', 'lise@example.com', 'Berlin');
INSERT INTO orders (customer_id, total, status) VALUES
  (1, 120.5, 'open'), (2, 80, 'shipped'), (3, 42.25, 'open'), (1, 310, 'cancelled'), (4, 19.99, 'open'), (5, 250, 'shipped');
`;
