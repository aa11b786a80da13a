//! `meff new`: a commented starter case.

use crate::args::*;
use crate::common::*;
use std::process::ExitCode;

pub(crate) fn new_case(name: &std::path::Path, template: meff::starter::Starter) -> ExitCode {
    let path = if name.extension().is_some() {
        name.to_path_buf()
    } else {
        name.with_extension("toml")
    };
    // A model the case reads sits beside it: `<stem>-model.xml`.
    let model = template.model_file().map(|(ext, text)| {
        let stem = path.file_stem().unwrap_or_default().to_string_lossy();
        (path.with_file_name(format!("{stem}-model.{ext}")), text)
    });
    for p in std::iter::once(&path).chain(model.as_ref().map(|(p, _)| p)) {
        if p.exists() {
            error(&format!(
                "{} exists; meff new never overwrites a file",
                shown(p)
            ));
            return ExitCode::from(EXIT_BAD_INPUT);
        }
    }
    let mut text = template.text().to_string();
    if let Some((p, _)) = &model {
        let file = p.file_name().unwrap_or_default().to_string_lossy();
        text = text.replace("{{model}}", &file);
    }
    // create_new refuses to replace a file that appears meanwhile.
    let create = |p: &std::path::Path, bytes: &str| {
        std::fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(p)
            .and_then(|mut f| std::io::Write::write_all(&mut f, bytes.as_bytes()))
    };
    let written = match &model {
        Some((p, body)) => create(p, body).and_then(|()| {
            create(&path, &text).inspect_err(|_| {
                let _ = std::fs::remove_file(p);
            })
        }),
        None => create(&path, &text),
    };
    match written {
        Ok(()) => {
            let also = model
                .as_ref()
                .map(|(p, _)| format!(" and {}", shown(p)))
                .unwrap_or_default();
            let text = format!(
                "wrote {}{also} ({}); try: meff eval {}\n",
                shown(&path),
                template.describe(),
                shown(&path)
            );
            match Stdout::new().print(&text) {
                Ok(()) => ExitCode::SUCCESS,
                Err(code) => code,
            }
        }
        Err(e) => {
            error(&format!("cannot write {}: {e}", shown(&path)));
            ExitCode::from(EXIT_BAD_INPUT)
        }
    }
}
