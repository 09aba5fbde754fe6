import { sql, type Kysely } from "kysely";
import { isPostgres } from "~/server/db/dialect";

// PostgreSQL: a two-word phrase found from the word indexes alone (ADR 050). GIN cannot tell a
// phrase from its words, so "supply chain" read the body's words of each candidate from TOAST to
// check the words' positions, about 4.5 µs a match and 4–6 ms for the newest 1,001. Each match's
// words now also hold, as lexemes without positions, every pair of words that stand side by side
// ("suppli chain"), and a two-word phrase asks for its pair: one lexeme, which the slices' GIN
// indexes answer without reading the rows.
//
// - search_word_pairs(words): the pairs of a tsvector's lexemes at neighbouring positions, as the
//   phrase operator <-> sees them (stop words leave gaps; so does the 16,383rd position).
// - search_phrase_pair(first, second): the tsquery for a phrase of two words, their stems joined
//   by a space; the phrase itself when either word is not exactly one lexeme (a stop word, say).
export async function up(db: Kysely<unknown>): Promise<void> {
  if (!isPostgres(db)) return;
  await sql`create function search_word_pairs(words tsvector) returns tsvector
    language sql immutable strict parallel safe as $$
      select coalesce(array_to_tsvector(array_agg(distinct a.lexeme || ' ' || b.lexeme)), ''::tsvector)
      from (select lexeme, unnest(positions) as position from unnest(words)) a
      join (select lexeme, unnest(positions) as position from unnest(words)) b on b.position = a.position + 1
    $$`.execute(db);
  await sql`create function search_phrase_pair(first text, second text) returns tsquery
    language sql immutable strict parallel safe as $$
      with f as (select array_agg(lexeme) as lexemes from unnest(to_tsvector('english', first))),
           s as (select array_agg(lexeme) as lexemes from unnest(to_tsvector('english', second)))
      select case when cardinality(f.lexemes) = 1 and cardinality(s.lexemes) = 1
        then quote_literal(f.lexemes[1] || ' ' || s.lexemes[1])::tsquery
        else to_tsquery('english', quote_literal(first) || ' <-> ' || quote_literal(second)) end
      from f, s
    $$`.execute(db);
  await sql`update search_match set words = words || search_word_pairs(words)`.execute(db);
  await sql`analyze search_match`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  if (!isPostgres(db)) return;
  // Keeps the lexemes that have positions (with their weights), which the pairs never have.
  await sql`update search_match set words = (
    select coalesce(string_agg(quote_literal(w.lexeme) || ':' || (
      select string_agg(p.position::text || p.weight, ',') from unnest(w.positions, w.weights) as p(position, weight)
    ), ' ')::tsvector, ''::tsvector)
    from unnest(words) w where cardinality(w.positions) > 0)`.execute(db);
  await sql`drop function search_phrase_pair(text, text)`.execute(db);
  await sql`drop function search_word_pairs(tsvector)`.execute(db);
}
