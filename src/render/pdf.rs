//! PDF reports, typeset by Typst used as a library (feature `pdf`).
//!
//! Why Typst: it typesets math natively (fractions, scripts, aligned
//! equations, OpenType math fonts), embeds SVG plots as vector graphics,
//! numbers pages, and runs offline in-process from embedded fonts — no
//! browser, no TeX installation. The report is written as Typst source by
//! the `report.typ` template (text escaped, LaTeX translated by
//! [`super::typ`]); the plots are handed to Typst as virtual files.
//!
//! Fonts (all under permissive licences, embedded in the binary): Libertinus
//! Serif and DejaVu Sans Mono from `typst-assets`, STIX Two Math from
//! meff's own `assets/`. The output is deterministic: no timestamp, a fixed
//! document identifier derived from the case's SHA-256.

use std::collections::HashMap;
use typst::diag::{FileError, FileResult};
use typst::foundations::{Bytes, Datetime};
use typst::syntax::{FileId, RootedPath, Source, VirtualPath, VirtualRoot};
use typst::text::{Font, FontBook};
use typst::utils::LazyHash;
use typst::{Library, LibraryExt, World};

/// The fonts a report uses, parsed once.
fn fonts() -> &'static (LazyHash<FontBook>, Vec<Font>) {
    static FONTS: std::sync::OnceLock<(LazyHash<FontBook>, Vec<Font>)> = std::sync::OnceLock::new();
    FONTS.get_or_init(|| {
        let mut fonts = Vec::new();
        let wanted = |f: &Font| {
            let family = f.info().family.to_lowercase();
            family.starts_with("libertinus serif") || family.starts_with("dejavu sans mono")
        };
        for data in typst_assets::fonts() {
            for font in Font::iter(Bytes::new(data)) {
                if wanted(&font) {
                    fonts.push(font);
                }
            }
        }
        let stix: &'static [u8] = include_bytes!("../../assets/STIXMath-Regular.otf");
        fonts.extend(Font::iter(Bytes::new(stix)));
        let book = FontBook::from_fonts(&fonts);
        (LazyHash::new(book), fonts)
    })
}

fn library() -> &'static LazyHash<Library> {
    static LIBRARY: std::sync::OnceLock<LazyHash<Library>> = std::sync::OnceLock::new();
    LIBRARY.get_or_init(|| LazyHash::new(Library::default()))
}

/// One report's sources: the main file and the plots.
struct ReportWorld {
    main: Source,
    files: HashMap<FileId, Bytes>,
}

impl World for ReportWorld {
    fn library(&self) -> &LazyHash<Library> {
        library()
    }

    fn book(&self) -> &LazyHash<FontBook> {
        &fonts().0
    }

    fn main(&self) -> FileId {
        self.main.id()
    }

    fn source(&self, id: FileId) -> FileResult<Source> {
        if id == self.main.id() {
            Ok(self.main.clone())
        } else {
            Err(FileError::NotFound(std::path::PathBuf::from(
                id.vpath().get_without_slash(),
            )))
        }
    }

    fn file(&self, id: FileId) -> FileResult<Bytes> {
        self.files.get(&id).cloned().ok_or_else(|| {
            FileError::NotFound(std::path::PathBuf::from(id.vpath().get_without_slash()))
        })
    }

    fn font(&self, index: usize) -> Option<Font> {
        fonts().1.get(index).cloned()
    }

    fn today(&self, _offset: Option<typst::foundations::Duration>) -> Option<Datetime> {
        // Reports carry no date: the same case gives the same bytes.
        None
    }
}

/// Typesets Typst source into PDF bytes. `files` are extra files by path
/// (`/plots/1.svg`); `ident` identifies the document stably.
pub fn typeset(
    source: &str,
    files: Vec<(String, Vec<u8>)>,
    ident: &str,
) -> Result<Vec<u8>, String> {
    // File ids are interned for the life of the process (at most 2¹⁶):
    // reports reuse a small fixed set of names.
    let id = |path: &str| -> Result<FileId, String> {
        let vpath = VirtualPath::new(path).map_err(|e| format!("{path}: {e:?}"))?;
        Ok(FileId::new(RootedPath::new(VirtualRoot::Project, vpath)))
    };
    let mut map = HashMap::new();
    for (path, bytes) in files {
        map.insert(id(&path)?, Bytes::new(bytes));
    }
    let world = ReportWorld {
        main: Source::new(id("/report.typ")?, source.to_string()),
        files: map,
    };
    let document = typst::compile::<typst_layout::PagedDocument>(&world)
        .output
        .map_err(|errors| {
            let mut msg = String::from("typesetting the PDF failed:");
            for e in errors.iter().take(5) {
                let at = typst::WorldExt::range(&world, e.span)
                    .map(|r| {
                        let line = source[..r.start].matches('\n').count() + 1;
                        let text: String = source
                            .lines()
                            .nth(line - 1)
                            .unwrap_or("")
                            .chars()
                            .take(160)
                            .collect();
                        format!(" (generated Typst line {line}: {text})")
                    })
                    .unwrap_or_default();
                msg.push_str(&format!("\n  {}{at}", e.message));
            }
            msg
        })?;
    let options = typst_pdf::PdfOptions {
        ident: typst::foundations::Smart::Custom(ident.to_string()),
        creator: typst::foundations::Smart::Custom(Some(format!(
            "meff {}",
            env!("CARGO_PKG_VERSION")
        ))),
        ..Default::default()
    };
    typst_pdf::pdf(&document, &options).map_err(|errors| {
        let mut msg = String::from("writing the PDF failed:");
        for e in errors.iter().take(5) {
            msg.push_str(&format!("\n  {}", e.message));
        }
        msg
    })
}
