//! Shared XML helpers of the model readers: bounded reading, parsing with
//! positions, numbers from attributes, errors at their place.

use crate::diag::{Diagnostic, SourceError};
use roxmltree::{Document, Node};
use std::ops::Range;

/// The most XML nodes one model file may have.
pub const MAX_NODES: u32 = 2_000_000;

/// A problem in a model file (which file: the reader that raised it knows).
pub type Problem = Diagnostic;

/// Reads a file as UTF-8 text, at most `max_bytes`.
pub fn read_text(
    path: &std::path::Path,
    shown: &str,
    max_bytes: u64,
) -> Result<String, SourceError> {
    use std::io::Read;
    let fail = |message: String| SourceError {
        path: shown.to_string(),
        source: String::new(),
        diagnostics: vec![Diagnostic::new(0..0, message)],
    };
    let meta = std::fs::metadata(path).map_err(|e| fail(format!("cannot read the model: {e}")))?;
    if !meta.is_file() {
        return Err(fail("the model is not a regular file".into()));
    }
    let file =
        std::fs::File::open(path).map_err(|e| fail(format!("cannot read the model: {e}")))?;
    let mut bytes = Vec::new();
    file.take(max_bytes.saturating_add(1))
        .read_to_end(&mut bytes)
        .map_err(|e| fail(format!("cannot read the model: {e}")))?;
    if bytes.len() as u64 > max_bytes {
        return Err(fail(format!(
            "the model is larger than {max_bytes} bytes, the most meff reads"
        )));
    }
    String::from_utf8(bytes).map_err(|e| {
        let at = e.utf8_error().valid_up_to();
        let source = String::from_utf8_lossy(e.as_bytes()).into_owned();
        SourceError {
            path: shown.to_string(),
            source,
            diagnostics: vec![Diagnostic::new(
                at..at + 1,
                "the file is not valid UTF-8 here",
            )],
        }
    })
}

/// The name of the first element, read without parsing the document:
/// after an optional byte-order mark, white space, the XML declaration,
/// comments and a doctype. `None` when the text does not start like XML.
/// A file that is not the model it was named as is refused on this alone,
/// so that none of its lines is quoted in a message.
pub fn first_element(text: &str) -> Option<&str> {
    let mut rest = text.trim_start_matches('\u{feff}');
    loop {
        rest = rest.trim_start();
        if let Some(r) = rest.strip_prefix("<?") {
            rest = &r[r.find("?>")? + 2..];
        } else if let Some(r) = rest.strip_prefix("<!--") {
            rest = &r[r.find("-->")? + 3..];
        } else if let Some(r) = rest.strip_prefix("<!") {
            rest = &r[r.find('>')? + 1..];
        } else {
            let r = rest.strip_prefix('<')?;
            let end = r
                .find(|c: char| c.is_whitespace() || c == '>' || c == '/')
                .unwrap_or(r.len());
            let name = &r[..end];
            let local = name.rsplit(':').next().unwrap_or(name);
            return (!local.is_empty()).then_some(local);
        }
    }
}

/// Name of the root element, if the text parses.
pub fn root_name(text: &str) -> Option<String> {
    parse(text)
        .ok()
        .map(|d| d.root_element().tag_name().name().to_string())
}

/// Parses XML text (no DTD, a node limit).
pub fn parse(text: &str) -> Result<Document<'_>, Problem> {
    let opts = roxmltree::ParsingOptions {
        allow_dtd: false,
        nodes_limit: MAX_NODES,
        ..Default::default()
    };
    Document::parse_with_options(text, opts).map_err(|e| {
        let pos = e.pos();
        let at = offset_of(text, pos.row as usize, pos.col as usize);
        Diagnostic::new(at..at, format!("invalid XML: {e}"))
    })
}

/// Byte offset of a 1-based line and column (in characters).
fn offset_of(text: &str, row: usize, col: usize) -> usize {
    let mut offset = 0;
    for (i, line) in text.split_inclusive('\n').enumerate() {
        if i + 1 == row {
            return offset
                + line
                    .char_indices()
                    .nth(col.saturating_sub(1))
                    .map_or(line.len(), |(b, _)| b);
        }
        offset += line.len();
    }
    text.len()
}

/// Span of an attribute's value, or of the element's start when absent.
pub fn attr_span(node: Node, name: &str) -> Range<usize> {
    node.attribute_node(name)
        .map(|a| a.range_value())
        .unwrap_or_else(|| tag_span(node))
}

/// Span of an element's name in its start tag.
pub fn tag_span(node: Node) -> Range<usize> {
    let start = node.range().start + 1;
    start..start + node.tag_name().name().len()
}

/// Largest magnitude of a number in a model file. Masses, lengths and
/// gains beyond it are not physical, and their products (m·r², r² of a
/// position 10²⁰⁰ m from the origin) overflow 64-bit floating point far
/// from the attribute that caused it.
pub const MAX_MAGNITUDE: f64 = 1e30;

/// Parses whitespace-separated numbers, each finite and within
/// ±[`MAX_MAGNITUDE`].
pub fn numbers(text: &str, span: Range<usize>, what: &str) -> Result<Vec<f64>, Problem> {
    let mut out = Vec::new();
    for word in text.split_ascii_whitespace() {
        match word.parse::<f64>() {
            Ok(x) if x.is_finite() && x.abs() > MAX_MAGNITUDE => {
                return Err(Diagnostic::new(
                    span,
                    format!(
                        "`{what}` holds {word}, beyond ±10³⁰: no physical model needs it, and its products would overflow 64-bit floating point"
                    ),
                ));
            }
            Ok(x) if x.is_finite() => out.push(x),
            _ => {
                return Err(Diagnostic::new(
                    span,
                    format!(
                        "`{what}` must be numbers, found `{}`",
                        crate::diag::escape_controls(word)
                    ),
                ));
            }
        }
    }
    Ok(out)
}

/// Parses exactly `n` numbers.
pub fn fixed<const N: usize>(
    text: &str,
    span: Range<usize>,
    what: &str,
) -> Result<[f64; N], Problem> {
    let v = numbers(text, span.clone(), what)?;
    v.as_slice().try_into().map_err(|_| {
        Diagnostic::new(
            span,
            format!("`{what}` must have {N} numbers, found {}", v.len()),
        )
    })
}

/// What other XML readers of robot models (TinyXML in urdfdom and MuJoCo)
/// let pass and roxmltree does not, made harmless without moving a byte
/// (so positions in messages stay right): an XML declaration after
/// comments or blank lines, and NUL characters (one published URDF ends
/// with one).
pub fn tolerate(text: &mut String) {
    if text.contains('\0') {
        *text = text.replace('\0', " ");
    }
    if let Some(at) = text.find("<?xml")
        && at > 0
        && let Some(len) = text[at..].find("?>")
    {
        let blank = " ".repeat(len + 2);
        text.replace_range(at..at + len + 2, &blank);
    }
}
