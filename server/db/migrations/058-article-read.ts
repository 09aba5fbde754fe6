import { sql, type Kysely } from "kysely";
import { isPostgres } from "~/server/db/dialect";

// What opening an article page records, in one statement (ADR 094): the page inserts one row into
// the view `article_read`, which holds no rows, and its INSTEAD OF trigger writes, in that same
// statement, whichever of these the row asks for:
// - `popular = 1`: one more read of the article on its UTC day (`article_read_day`, Most Popular);
// - `user_id`: the article at the top of that reader's history (`view_history`, at `read_at`);
// - `wall`: the wall the reader met that day, for the meter funnel (`wall_view`, ADR 090).
// A statement is atomic with its triggers on both databases: all of it is written, or none.
const COLUMNS = sql`select cast(null as integer) as article_id, cast(null as text) as day, cast(null as text) as read_at,
  cast(null as integer) as popular, cast(null as text) as user_id, cast(null as text) as wall,
  cast(null as text) as ab_tag, cast(null as text) as viewer where 1 = 0`;

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create view article_read as ${COLUMNS}`.execute(db);
  if (isPostgres(db)) {
    await sql`create function article_read_insert() returns trigger language plpgsql as $$
      begin
        if new.popular = 1 then
          insert into article_read_day (article_id, day, reads) values (new.article_id, new.day, 1)
            on conflict (article_id, day) do update set reads = article_read_day.reads + 1;
        end if;
        if new.user_id is not null then
          insert into view_history (user_id, content_type, content_id, viewed_at) values (new.user_id, 'article', new.article_id, new.read_at)
            on conflict (user_id, content_type, content_id) do update set viewed_at = excluded.viewed_at;
        end if;
        if new.wall is not null then
          insert into wall_view (day, wall, ab_tag, viewer) values (new.day, new.wall, new.ab_tag, new.viewer) on conflict do nothing;
        end if;
        return new;
      end $$`.execute(db);
    await sql`create trigger article_read_insert instead of insert on article_read
      for each row execute function article_read_insert()`.execute(db);
  } else {
    await sql`create trigger article_read_insert instead of insert on article_read begin
      insert into article_read_day (article_id, day, reads) select new.article_id, new.day, 1 where new.popular = 1
        on conflict (article_id, day) do update set reads = reads + 1;
      insert into view_history (user_id, content_type, content_id, viewed_at)
        select new.user_id, 'article', new.article_id, new.read_at where new.user_id is not null
        on conflict (user_id, content_type, content_id) do update set viewed_at = excluded.viewed_at;
      insert into wall_view (day, wall, ab_tag, viewer) select new.day, new.wall, new.ab_tag, new.viewer where new.wall is not null
        on conflict do nothing;
    end`.execute(db);
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop view article_read`.execute(db);
  if (isPostgres(db)) await sql`drop function article_read_insert()`.execute(db);
}
