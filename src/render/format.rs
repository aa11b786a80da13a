//! The report formats: one enum for the command line (`--format`), the
//! Python package (`Result.report(format=…)`) and the files written.

/// A report format. Its name on the command line and in Python is its
/// file extension.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, clap::ValueEnum)]
pub enum Format {
    /// Markdown.
    Md,
    /// Self-contained HTML (MathML, inline SVG; the math font beside it).
    Html,
    /// JSON (SI units; the same document as `eval --json`).
    Json,
    /// PDF, typeset offline (A4; formulas as math, plots as vector graphics).
    Pdf,
}

impl Format {
    /// Every format, in the order `--help` lists them.
    pub const ALL: [Format; 4] = [Format::Md, Format::Html, Format::Json, Format::Pdf];

    /// The file extension, which is also the format's name.
    pub fn extension(self) -> &'static str {
        match self {
            Format::Md => "md",
            Format::Html => "html",
            Format::Pdf => "pdf",
            Format::Json => "json",
        }
    }

    /// The format named `name` (its extension).
    pub fn parse(name: &str) -> Option<Format> {
        Format::ALL.into_iter().find(|f| f.extension() == name)
    }
}

#[cfg(test)]
mod tests {
    use super::Format;
    use clap::ValueEnum;

    /// The command line's names are the extensions `parse` reads.
    #[test]
    fn names_are_extensions() {
        for f in Format::ALL {
            assert_eq!(Format::parse(f.extension()), Some(f));
            let v = f.to_possible_value().expect("every format is shown");
            assert_eq!(v.get_name(), f.extension());
        }
        assert_eq!(Format::value_variants(), Format::ALL);
        assert_eq!(Format::parse("typ"), None);
    }
}
