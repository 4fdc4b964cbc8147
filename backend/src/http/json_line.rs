//! One log event as one JSON line, in tracing-subscriber's JSON shape (`timestamp`, `level`,
//! `fields`, `target`, `span`, `spans`), written straight into the line. tracing-subscriber's
//! own JSON formatter parses each span's stored fields back from JSON for every line and goes
//! through serde and a UTF-8 check per write, and its `JsonFields` builds a map of each new
//! span's fields before writing them; with a span on every request, that was about a sixth of a
//! quote post's instructions (`scripts/bench-instructions.sh`). Here a span's fields are written
//! as a JSON object once, when it is made (`JsonLineFields`), and copied into each line. The
//! request being handled (`RequestId::with_current`) is written as the outermost span, named
//! `request`, with its `request_id`, as a tracing span would be.

use std::fmt::{self, Write};

use tracing::field::{Field, Visit};
use tracing::span::Record;
use tracing::{Event, Subscriber};
use tracing_log::NormalizeEvent;
use tracing_subscriber::field::RecordFields;
use tracing_subscriber::fmt::format::Writer;
use tracing_subscriber::fmt::time::{FormatTime, SystemTime};
use tracing_subscriber::fmt::{FmtContext, FormatEvent, FormatFields, FormattedFields};
use tracing_subscriber::registry::{LookupSpan, SpanRef};

use super::request_id::RequestId;

/// The event format.
pub struct JsonLine;

/// The span fields' format: a JSON object.
pub struct JsonLineFields;

impl<'writer> FormatFields<'writer> for JsonLineFields {
    fn format_fields<R: RecordFields>(
        &self,
        mut writer: Writer<'writer>,
        fields: R,
    ) -> fmt::Result {
        writer.write_char('{')?;
        members(&mut writer, true, fields)?;
        writer.write_char('}')
    }

    /// Fields recorded after the span was made join its object.
    fn add_fields(
        &self,
        current: &'writer mut FormattedFields<Self>,
        fields: &Record<'_>,
    ) -> fmt::Result {
        if current.fields.is_empty() {
            return self.format_fields(current.as_writer(), fields);
        }
        let first = current.fields == "{}";
        current.fields.pop();
        members(&mut current.as_writer(), first, fields)?;
        current.fields.push('}');
        Ok(())
    }
}

/// `fields` as members of a JSON object, a comma before the first unless `first`.
fn members(writer: &mut Writer<'_>, first: bool, fields: impl RecordFields) -> fmt::Result {
    let mut visitor = Fields {
        writer,
        first,
        result: Ok(()),
    };
    fields.record(&mut visitor);
    visitor.result
}

impl<S> FormatEvent<S, JsonLineFields> for JsonLine
where
    S: Subscriber + for<'a> LookupSpan<'a>,
{
    fn format_event(
        &self,
        ctx: &FmtContext<'_, S, JsonLineFields>,
        mut writer: Writer<'_>,
        event: &Event<'_>,
    ) -> fmt::Result {
        // An event from the `log` crate (a dependency's) names its own level and target.
        let normalized = event.normalized_metadata();
        let meta = normalized.as_ref().unwrap_or_else(|| event.metadata());
        writer.write_str("{\"timestamp\":\"")?;
        SystemTime.format_time(&mut writer)?;
        write!(writer, "\",\"level\":\"{}\",\"fields\":{{", meta.level())?;
        members(&mut writer, true, event)?;
        writer.write_str("},\"target\":")?;
        string(&mut writer, meta.target())?;
        let current = event
            .parent()
            .and_then(|id| ctx.span(id))
            .or_else(|| ctx.lookup_current());
        match RequestId::with_current(|id| scope(&mut writer, Some(id), current.as_ref())) {
            Some(written) => written?,
            None => scope(&mut writer, None, current.as_ref())?,
        }
        writer.write_str("}\n")
    }
}

/// `"span"` (the innermost) and `"spans"` (from the outermost) when the event is logged while a
/// request is handled (`request`, its id, written as a span named `request` with a `request_id`
/// field would be) or in a tracing span (`current`).
fn scope<S>(
    writer: &mut Writer<'_>,
    request: Option<&str>,
    current: Option<&SpanRef<'_, S>>,
) -> fmt::Result
where
    S: for<'a> LookupSpan<'a>,
{
    match (current, request) {
        (None, None) => return Ok(()),
        (Some(current), _) => {
            writer.write_str(",\"span\":")?;
            span(writer, current)?;
        }
        (None, Some(id)) => {
            writer.write_str(",\"span\":")?;
            request_span(writer, id)?;
        }
    }
    writer.write_str(",\"spans\":[")?;
    if let Some(id) = request {
        request_span(writer, id)?;
    }
    let outer = current
        .into_iter()
        .flat_map(|current| current.scope().from_root());
    for (i, outer) in outer.enumerate() {
        if i > 0 || request.is_some() {
            writer.write_char(',')?;
        }
        span(writer, &outer)?;
    }
    writer.write_char(']')
}

fn request_span(writer: &mut Writer<'_>, id: &str) -> fmt::Result {
    writer.write_str("{\"request_id\":")?;
    string(writer, id)?;
    writer.write_str(",\"name\":\"request\"}")
}

/// A span as `{its fields..., "name": its name}`.
fn span<S>(writer: &mut Writer<'_>, span: &SpanRef<'_, S>) -> fmt::Result
where
    S: for<'a> LookupSpan<'a>,
{
    let extensions = span.extensions();
    let stored = extensions
        .get::<FormattedFields<JsonLineFields>>()
        .map_or("", |fields| fields.fields.as_str());
    // `{}` or `{"a":1,...}`, as `JsonLineFields` wrote it.
    let inner = stored
        .strip_prefix('{')
        .and_then(|rest| rest.strip_suffix('}'))
        .unwrap_or("");
    writer.write_char('{')?;
    if !inner.is_empty() {
        writer.write_str(inner)?;
        writer.write_char(',')?;
    }
    writer.write_str("\"name\":")?;
    string(writer, span.name())?;
    writer.write_char('}')
}

/// An event's fields as the members of a JSON object; `log.` fields (the `log` crate's metadata,
/// already in `level` and `target`) left out, as tracing-subscriber does.
struct Fields<'w, 'a> {
    writer: &'w mut Writer<'a>,
    first: bool,
    result: fmt::Result,
}

impl Fields<'_, '_> {
    fn member(&mut self, field: &Field, value: impl FnOnce(&mut Writer<'_>) -> fmt::Result) {
        let name = field.name();
        if self.result.is_err() || name.starts_with("log.") {
            return;
        }
        let name = name.strip_prefix("r#").unwrap_or(name);
        let separator = if std::mem::take(&mut self.first) {
            ""
        } else {
            ","
        };
        self.result = self
            .writer
            .write_str(separator)
            .and_then(|()| string(self.writer, name))
            .and_then(|()| self.writer.write_char(':'))
            .and_then(|()| value(self.writer));
    }
}

impl Visit for Fields<'_, '_> {
    fn record_f64(&mut self, field: &Field, value: f64) {
        self.member(field, |w| {
            // Debug, unlike Display, keeps a float a float (`2.0`, `1e16`), as serde_json writes it.
            if value.is_finite() {
                write!(w, "{value:?}")
            } else {
                w.write_str("null")
            }
        });
    }

    fn record_i64(&mut self, field: &Field, value: i64) {
        self.member(field, |w| write!(w, "{value}"));
    }

    fn record_u64(&mut self, field: &Field, value: u64) {
        self.member(field, |w| write!(w, "{value}"));
    }

    fn record_bool(&mut self, field: &Field, value: bool) {
        self.member(field, |w| write!(w, "{value}"));
    }

    fn record_str(&mut self, field: &Field, value: &str) {
        self.member(field, |w| string(w, value));
    }

    fn record_debug(&mut self, field: &Field, value: &dyn fmt::Debug) {
        self.member(field, |w| {
            w.write_char('"')?;
            write!(Escaped(w), "{value:?}")?;
            w.write_char('"')
        });
    }
}

/// `text` as a JSON string.
fn string(writer: &mut impl Write, text: &str) -> fmt::Result {
    writer.write_char('"')?;
    Escaped(writer).write_str(text)?;
    writer.write_char('"')
}

/// Writes what it is given escaped for the inside of a JSON string.
struct Escaped<'w, W: Write>(&'w mut W);

impl<W: Write> Write for Escaped<'_, W> {
    fn write_str(&mut self, mut text: &str) -> fmt::Result {
        let special = |byte: u8| byte < 0x20 || byte == b'"' || byte == b'\\';
        while let Some(at) = text.bytes().position(special) {
            self.0.write_str(&text[..at])?;
            match text.as_bytes()[at] {
                b'"' => self.0.write_str("\\\"")?,
                b'\\' => self.0.write_str("\\\\")?,
                b'\n' => self.0.write_str("\\n")?,
                b'\r' => self.0.write_str("\\r")?,
                b'\t' => self.0.write_str("\\t")?,
                control => write!(self.0, "\\u{control:04x}")?,
            }
            // The byte is ASCII, so the rest starts on a character.
            text = &text[at + 1..];
        }
        self.0.write_str(text)
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use std::sync::{Arc, Mutex};

    use serde_json::{json, Value};

    use super::*;
    use crate::http::request_id::tests::in_request;

    #[derive(Clone, Default)]
    struct Captured(Arc<Mutex<Vec<u8>>>);

    impl std::io::Write for Captured {
        fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
            self.0.lock().unwrap().extend_from_slice(bytes);
            Ok(bytes.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }

    /// The lines `log` writes, in our format, or else in tracing-subscriber's own JSON; without
    /// their `timestamp`.
    pub fn logged(ours: bool, log: impl Fn()) -> Vec<Value> {
        let captured = Captured::default();
        let writer = captured.clone();
        let builder = tracing_subscriber::fmt().with_writer(move || writer.clone());
        if ours {
            let subscriber = builder
                .fmt_fields(JsonLineFields)
                .event_format(JsonLine)
                .finish();
            tracing::subscriber::with_default(subscriber, log);
        } else {
            tracing::subscriber::with_default(builder.json().finish(), log);
        }
        let text = String::from_utf8(captured.0.lock().unwrap().clone()).unwrap();
        text.lines()
            .map(|line| serde_json::from_str::<Value>(line).expect(line))
            .map(|mut line| {
                line.as_object_mut().unwrap().remove("timestamp");
                line
            })
            .collect()
    }

    #[test]
    fn lines_read_as_tracing_subscribers_own_json() {
        let outside = || {
            tracing::info!(target: "request", method = %"POST", path = "/a\"b\\c\n\u{1}é", status = 201_u16, latency_ms = 1.5, ok = true, delta = -3_i64, "done {}", 1);
        };
        let inside = || {
            tracing::warn!(nan = f64::NAN, "inside");
            let inner =
                tracing::info_span!("delivery", attempt = 2, channel = tracing::field::Empty);
            let _inner = inner.enter();
            inner.record("channel", "email");
            tracing::error!(error = ?std::io::Error::other("a \"quoted\" error"), "deeper");
            let empty = tracing::info_span!("empty", later = tracing::field::Empty);
            let _empty = empty.enter();
            tracing::info!("no fields on the span");
            empty.record("later", 7);
            tracing::info!("a field recorded later");
        };
        // A request being handled reads as a span named `request` with its id.
        let ours = logged(true, || {
            outside();
            in_request("0193-ab", inside);
        });
        let theirs = logged(false, || {
            outside();
            tracing::error_span!("request", request_id = "0193-ab").in_scope(inside);
        });
        assert_eq!(ours.len(), 5);
        assert_eq!(ours, theirs);
        assert_eq!(
            ours[1]["span"],
            json!({"request_id": "0193-ab", "name": "request"})
        );
        assert_eq!(ours[1]["fields"]["nan"], Value::Null);
        assert_eq!(ours[2]["spans"][0]["request_id"], "0193-ab");
    }

    #[test]
    fn an_event_of_the_log_crate_keeps_its_level_and_target() {
        let lines = logged(true, || {
            let record = log::Record::builder()
                .level(log::Level::Warn)
                .target("some_crate::pool")
                .args(format_args!("from log"))
                .build();
            tracing_log::format_trace(&record).unwrap();
        });
        assert_eq!(lines.len(), 1);
        assert_eq!(lines[0]["level"], "WARN");
        assert_eq!(lines[0]["target"], "some_crate::pool");
        assert_eq!(lines[0]["fields"], json!({"message": "from log"}));
    }
}
