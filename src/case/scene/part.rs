//! One part of a scene, read by itself (issue 41, "past one machine"):
//! the bodies of a range and the contacts whose `body` is one of them,
//! with the other bodies those contacts touch, for one of several
//! processes of a distributed solve (`meff.mpi`).
//!
//! From an NPZ archive only the part's rows of each array are read: the
//! `body` array is streamed once to find the part's contacts, then each
//! contact array's rows of those contacts, the `other` bodies they touch,
//! and each body array's rows of the part's bodies. A member saved
//! uncompressed (`np.savez`) is read by byte range (a seek per run of
//! rows); a compressed member (`np.savez_compressed`) is decompressed as
//! a stream and the rows not wanted are skipped, so every part then
//! decompresses the whole of it (the time of reading the whole scene, the
//! memory of the part), within the input limit. A CSV or dump scene is
//! read whole and cut ([`cut`]).
//!
//! The part's columns pass the readers' own rules: the archive's names and
//! shapes ([`super::check_arrays`], on the whole file's shapes), kinds,
//! units and index ranges ([`super::from_arrays`], indices against the
//! whole scene's bodies) and [`super::validate`]; a problem is reported at
//! the whole scene's row ([`PartMap`] renumbers it). Rows outside every
//! part (a `body` out of range) are read by part 0, so that one part
//! reports them. Names are checked within the part only (a name repeated
//! in two parts is not seen).

use super::npy::{self, Data, Header, Kind};
use super::{Issue, MAX_ROWS, SceneData, SceneError, Table, TangentialColumns, Units, WORLD};
use crate::case::types::Space;
use std::io::{BufReader, Read, Seek, SeekFrom};
use std::ops::Range;

/// Part `part` of `parts` of a scene, by body range.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PartRequest {
    /// Which part, from 0.
    pub part: usize,
    /// How many parts.
    pub parts: usize,
}

impl PartRequest {
    /// The request, or `None` unless `part < parts`.
    pub fn new(part: usize, parts: usize) -> Option<PartRequest> {
        (part < parts).then_some(PartRequest { part, parts })
    }

    /// The bodies this part owns in a scene of `n`.
    pub fn bodies(&self, n: usize) -> Range<usize> {
        body_range(n, self.part, self.parts)
    }
}

/// Bodies `[n·part/parts, n·(part+1)/parts)`: `parts` ranges as equal as
/// whole bodies allow, covering `0..n` in order.
pub fn body_range(n: usize, part: usize, parts: usize) -> Range<usize> {
    let at = |p: usize| (n as u128 * p as u128 / parts.max(1) as u128) as usize;
    at(part.min(parts))..at((part + 1).min(parts))
}

/// Where a part's rows are in the whole scene.
#[derive(Clone, Debug, PartialEq)]
pub struct PartMap {
    /// The bodies the part owns.
    pub bodies: Range<usize>,
    /// Scene index of each of the part's bodies (its own and the others
    /// its contacts touch), increasing.
    pub global: Vec<usize>,
    /// Scene index of each of the part's contacts, increasing.
    pub contacts: Vec<usize>,
    /// Bodies in the whole scene.
    pub n_bodies: usize,
    /// Contacts in the whole scene.
    pub n_contacts: usize,
}

impl PartMap {
    /// `issues` with the part's rows numbered as the scene's.
    fn locate(&self, mut issues: Vec<Issue>) -> Vec<Issue> {
        for i in &mut issues {
            i.row = i.row.map(|r| match i.table {
                Table::Bodies => self.global.get(r).copied().unwrap_or(r),
                Table::Contacts => self.contacts.get(r).copied().unwrap_or(r),
            });
        }
        issues
    }

    /// The map of `contacts` of a scene of `n` bodies whose contacts touch
    /// `touched` bodies (scene indices, any order, owned ones included).
    fn new(
        bodies: Range<usize>,
        touched: impl IntoIterator<Item = usize>,
        contacts: Vec<usize>,
        n_bodies: usize,
        n_contacts: usize,
    ) -> PartMap {
        let mut global: Vec<usize> = touched
            .into_iter()
            .filter(|b| *b < n_bodies && !bodies.contains(b))
            .collect();
        global.extend(bodies.clone());
        global.sort_unstable();
        global.dedup();
        PartMap {
            bodies,
            global,
            contacts,
            n_bodies,
            n_contacts,
        }
    }

    /// The part's index of scene body `b` (one of its bodies).
    fn local(&self, b: u32) -> u32 {
        match b {
            WORLD => WORLD,
            b => self
                .global
                .binary_search(&(b as usize))
                .expect("a body of the part") as u32,
        }
    }
}

/// The part of an in-memory scene (read whole, as CSV and dumps are): the
/// same columns and map [`read`] gives for an archive.
pub fn cut(s: &SceneData, space: Space, request: PartRequest) -> (SceneData, PartMap) {
    let (n, c) = (s.n_bodies(), s.n_contacts());
    let bodies = request.bodies(n);
    let contacts: Vec<usize> = (0..c)
        .filter(|&i| bodies.contains(&(s.body[i] as usize)))
        .collect();
    let touched: Vec<usize> = contacts
        .iter()
        .filter(|&&i| s.other[i] != WORLD)
        .map(|&i| s.other[i] as usize)
        .collect();
    let map = PartMap::new(bodies, touched, contacts, n, c);
    let d = space.dim();
    let per = |v: &[f64], k: usize, rows: &[usize]| -> Vec<f64> {
        rows.iter()
            .flat_map(|&r| v[k * r..k * r + k].iter().copied())
            .collect()
    };
    let (g, cs) = (&map.global, &map.contacts);
    let names = |v: &Option<Vec<String>>, rows: &[usize]| -> Option<Vec<String>> {
        v.as_ref()
            .map(|v| rows.iter().map(|&r| v[r].clone()).collect())
    };
    let part = SceneData {
        mass: per(&s.mass, 1, g),
        position: per(&s.position, d, g),
        inertia: per(&s.inertia, if d == 3 { 6 } else { 1 }, g),
        fixed: g.iter().map(|&b| s.fixed[b]).collect(),
        body_names: names(&s.body_names, g),
        body: cs.iter().map(|&i| map.local(s.body[i])).collect(),
        other: cs.iter().map(|&i| map.local(s.other[i])).collect(),
        point: per(&s.point, d, cs),
        normal: per(&s.normal, d, cs),
        stiffness: per(&s.stiffness, 1, cs),
        damping: s.damping.as_ref().map(|v| per(v, 1, cs)),
        contact_names: names(&s.contact_names, cs),
        image: s.image.as_ref().map(|v| per(v, d, cs)),
        tangential: s.tangential.as_ref().map(|t| TangentialColumns {
            stiffness: per(&t.stiffness, 1, cs),
            ratio: t.ratio,
            damping: t.damping.as_ref().map(|v| per(v, 1, cs)),
        }),
    };
    (part, map)
}

/// One `.npy` member of the archive and where its data is.
struct Member {
    /// Index in the archive.
    index: usize,
    /// Name without `.npy`.
    name: String,
    header: Header,
    /// Bytes of the `.npy` header before the data.
    data_offset: u64,
    /// A stored member's first byte in the file; `None`: compressed.
    stored_at: Option<u64>,
}

/// The part `request` of the NPZ scene at `path` (see the module's
/// documentation). `max_bytes` bounds the bytes decompressed from
/// compressed members (all of them, by every part) and the bytes a part
/// keeps; stored members are read only where the part's rows are.
pub fn read(
    path: &std::path::Path,
    space: Space,
    units: Units,
    max_bytes: u64,
    request: PartRequest,
) -> Result<(SceneData, PartMap), SceneError> {
    let file = |message: String| SceneError::File { file: 0, message };
    let mut zip = std::fs::File::open(path)
        .map_err(|e| e.to_string())
        .and_then(|f| {
            zip::ZipArchive::new(f).map_err(|e| format!("not a NumPy .npz archive ({e})"))
        })
        .map_err(file)?;
    let members = members(&mut zip, max_bytes).map_err(file)?;
    let shapes: Vec<(String, Vec<usize>)> = members
        .iter()
        .map(|m| (m.name.clone(), m.header.shape.clone()))
        .collect();
    let issues = super::check_arrays(&shapes, space);
    if !issues.is_empty() {
        return Err(SceneError::Npz(issues));
    }
    let get = |name: &str| members.iter().find(|m| m.name == name);
    let rows_of = |name: &str| get(name).map_or(0, |m| m.header.shape[0]);
    let (n, c) = (rows_of("mass"), rows_of("stiffness"));
    if n >= WORLD as usize {
        return Err(file(format!(
            "the scene has {n} bodies: meff numbers at most {} (32-bit indices)",
            WORLD - 1
        )));
    }
    let mut reader = PartReader {
        zip: &mut zip,
        path,
        kept: 0,
        max_bytes,
    };
    let bodies = request.bodies(n);
    let body = get("body").expect("checked: the archive has `body`");
    let contacts = reader
        .owned_contacts(body, &bodies, n, request.part == 0)
        .map_err(file)?;
    let other = get("other").expect("checked: the archive has `other`");
    let touched: Vec<usize> = match reader.rows(other, &contacts).map_err(file)?.data {
        Data::Int(v) => v
            .into_iter()
            .filter(|&x| x >= 0)
            .map(|x| x as usize)
            .collect(),
        _ => Vec::new(), // not indices: `from_arrays` says so
    };
    let map = PartMap::new(bodies, touched, contacts, n, c);
    for (what, count) in [
        ("bodies", map.global.len()),
        ("contacts", map.contacts.len()),
    ] {
        if count > MAX_ROWS {
            return Err(file(format!(
                "this part has {count} {what}: more than the {MAX_ROWS} one part reads (use more parts)"
            )));
        }
    }
    let mut arrays = Vec::with_capacity(members.len());
    for m in &members {
        let table = super::NPZ_ARRAYS
            .iter()
            .find(|(k, _)| *k == m.name)
            .map(|(_, t)| *t)
            .expect("checked: every array is known");
        let rows = match table {
            Table::Bodies => &map.global,
            Table::Contacts => &map.contacts,
        };
        arrays.push((m.name.clone(), reader.rows(m, rows).map_err(file)?));
    }
    let mut data = SceneData::default();
    let issues = super::from_arrays(arrays, space, units, (&mut data, &mut None), Some(n));
    if !issues.is_empty() {
        return Err(SceneError::Npz(map.locate(issues)));
    }
    for v in [&mut data.body, &mut data.other] {
        for x in v.iter_mut() {
            *x = map.local(*x);
        }
    }
    let issues = super::validate(&data, space);
    if !issues.is_empty() {
        return Err(SceneError::Npz(map.locate(issues)));
    }
    Ok((data, map))
}

/// The archive's `.npy` members and their headers; the sizes they state
/// checked against their shapes, and the compressed ones' total against
/// `max_bytes` (every part decompresses them).
fn members(
    zip: &mut zip::ZipArchive<std::fs::File>,
    max_bytes: u64,
) -> Result<Vec<Member>, String> {
    let mut out = Vec::new();
    let mut packed = 0u64;
    for index in 0..zip.len() {
        let mut entry = zip.by_index(index).map_err(|e| e.to_string())?;
        let name = entry.name().map_err(|e| e.to_string())?.to_string();
        let Some(stem) = name.strip_suffix(".npy") else {
            continue;
        };
        let name = stem.to_string();
        let at = |e: String| format!("array `{name}`: {e}");
        let size = entry.size();
        let stored = entry.compression() == zip::CompressionMethod::Stored;
        let stored_at = entry.data_start();
        let mut head = Vec::new();
        (&mut entry)
            .take(npy::MAX_HEADER.min(size))
            .read_to_end(&mut head)
            .map_err(|e| at(e.to_string()))?;
        let (header, end) = npy::header_of(&head).map_err(at)?;
        npy::data_size(&header, size - end as u64, usize::MAX).map_err(at)?;
        if header.shape.is_empty() {
            return Err(at("the array has no rows (a 0-d array)".into()));
        }
        if !stored {
            packed = packed.saturating_add(size);
            if packed > max_bytes {
                return Err(format!(
                    "the compressed arrays decompress to more than the input limit of {max_bytes} bytes, and every part decompresses all of them: save the scene with np.savez (not savez_compressed), whose arrays are read by range"
                ));
            }
        }
        out.push(Member {
            index,
            name,
            header,
            data_offset: end as u64,
            stored_at: if stored { stored_at } else { None },
        });
    }
    Ok(out)
}

/// Reads rows of the archive's members.
struct PartReader<'z> {
    zip: &'z mut zip::ZipArchive<std::fs::File>,
    path: &'z std::path::Path,
    /// Bytes kept so far, against `max_bytes`.
    kept: u64,
    max_bytes: u64,
}

/// Bytes decoded at a time.
const CHUNK: usize = 1 << 20;

/// A member's data, read forward: by seeks in the file (stored) or
/// decompressed and skipped (compressed).
enum Source<'a> {
    Stored(BufReader<std::fs::File>),
    Packed(zip::read::ZipFile<'a, std::fs::File>),
}

impl Source<'_> {
    fn skip(&mut self, gap: u64) -> Result<(), String> {
        match self {
            Source::Stored(f) => f
                .seek_relative(i64::try_from(gap).map_err(|e| e.to_string())?)
                .map_err(|e| e.to_string()),
            Source::Packed(z) => {
                let skipped = std::io::copy(&mut (&mut *z).take(gap), &mut std::io::sink())
                    .map_err(|e| e.to_string())?;
                if skipped != gap {
                    return Err("the archive's member is shorter than it says".into());
                }
                Ok(())
            }
        }
    }

    fn read_exact(&mut self, buf: &mut [u8]) -> Result<(), String> {
        match self {
            Source::Stored(f) => f.read_exact(buf),
            Source::Packed(z) => z.read_exact(buf),
        }
        .map_err(|_| "the archive's member is shorter than it says".to_string())
    }
}

impl PartReader<'_> {
    /// Calls `each` with the bytes of `spans` (byte offset and length in
    /// the member's data, increasing, whole items of `item` bytes) in
    /// order, at most [`CHUNK`] bytes (whole items) at a time.
    fn for_spans(
        &mut self,
        m: &Member,
        spans: impl Iterator<Item = (u64, u64)>,
        item: usize,
        mut each: impl FnMut(&[u8]) -> Result<(), String>,
    ) -> Result<(), String> {
        let mut source = match m.stored_at {
            Some(at) => {
                let mut f = std::fs::File::open(self.path).map_err(|e| e.to_string())?;
                f.seek(SeekFrom::Start(at + m.data_offset))
                    .map_err(|e| e.to_string())?;
                // Small: a row far from the last costs one such read.
                Source::Stored(BufReader::with_capacity(1 << 13, f))
            }
            None => {
                let mut z = self.zip.by_index(m.index).map_err(|e| e.to_string())?;
                let skipped =
                    std::io::copy(&mut (&mut z).take(m.data_offset), &mut std::io::sink())
                        .map_err(|e| e.to_string())?;
                debug_assert_eq!(skipped, m.data_offset);
                Source::Packed(z)
            }
        };
        let per = (CHUNK / item).max(1) * item;
        let mut buf = vec![0u8; per];
        let mut filled = 0usize;
        let mut pos = 0u64;
        for (start, len) in spans {
            source.skip(start - pos)?;
            let mut left = len as usize;
            while left > 0 {
                let n = left.min(per - filled);
                source.read_exact(&mut buf[filled..filled + n])?;
                filled += n;
                left -= n;
                if filled == per {
                    each(&buf)?;
                    filled = 0;
                }
            }
            pos = start + len;
        }
        if filled > 0 {
            each(&buf[..filled])?;
        }
        Ok(())
    }

    /// The contacts whose `body` is in `bodies`, increasing; with
    /// `strays`, also those whose `body` is no body of the `n` (so that
    /// this part's checks report them). A `body` array of another kind
    /// than integers gives none (the checks say so).
    fn owned_contacts(
        &mut self,
        m: &Member,
        bodies: &Range<usize>,
        n: usize,
        strays: bool,
    ) -> Result<Vec<usize>, String> {
        let h = &m.header;
        if !matches!(h.kind, Kind::Int | Kind::UInt) {
            return Ok(Vec::new());
        }
        let rows = h.shape[0];
        let total = (rows * h.size) as u64;
        let mut out = Vec::new();
        let mut row = 0usize;
        let name = m.name.clone();
        let header = Header {
            shape: vec![],
            ..*h
        };
        self.for_spans(m, std::iter::once((0, total)), h.size, |bytes| {
            let Data::Int(v) = npy::decode(&header, bytes, bytes.len() / header.size)? else {
                unreachable!("an integer kind decodes to integers")
            };
            for x in v {
                let owned = x >= 0 && bodies.contains(&(x as usize));
                if owned || (strays && !(x >= 0 && (x as usize) < n)) {
                    out.push(row);
                }
                row += 1;
            }
            Ok(())
        })
        .map_err(|e| format!("array `{name}`: {e}"))?;
        Ok(out)
    }

    /// Rows `rows` (increasing) of member `m`, as an array of their count
    /// of rows; C or Fortran order, either byte order, every kind the
    /// whole reader reads.
    fn rows(&mut self, m: &Member, rows: &[usize]) -> Result<npy::Array, String> {
        let h = &m.header;
        let at = |e: String| format!("array `{}`: {e}", m.name);
        let total = h.shape[0] as u64;
        let width: usize = h.shape[1..].iter().product();
        let item = h.size as u64;
        let count = rows.len() * width;
        let bytes = (count as u64).saturating_mul(item);
        self.kept = self.kept.saturating_add(bytes);
        if self.kept > self.max_bytes {
            return Err(format!(
                "this part's rows come to more than the input limit of {} bytes (raise it, or use more parts)",
                self.max_bytes
            ));
        }
        let fortran = h.fortran && h.shape.len() > 1;
        // Runs of consecutive rows, as (first row, rows).
        let runs = || {
            let mut runs: Vec<(u64, u64)> = Vec::new();
            for &r in rows {
                match runs.last_mut() {
                    Some((s, l)) if *s + *l == r as u64 => *l += 1,
                    _ => runs.push((r as u64, 1)),
                }
            }
            runs
        };
        let runs = runs();
        // C order: a row is `width` items in a row; Fortran order: item
        // `t` of every row is a column of `total` items.
        let spans: Box<dyn Iterator<Item = (u64, u64)>> = if fortran {
            Box::new((0..width as u64).flat_map(move |t| {
                runs.clone()
                    .into_iter()
                    .map(move |(s, l)| ((t * total + s) * item, l * item))
            }))
        } else {
            let w = width as u64 * item;
            Box::new(runs.into_iter().map(move |(s, l)| (s * w, l * w)))
        };
        let header = Header {
            shape: vec![],
            ..*h
        };
        let mut data: Option<Data> = None;
        self.for_spans(m, spans, h.size, |bytes| {
            let part = npy::decode(&header, bytes, bytes.len() / header.size)?;
            match (&mut data, part) {
                (None, part) => data = Some(part),
                (Some(Data::Float(v)), Data::Float(p)) => v.extend(p),
                (Some(Data::Int(v)), Data::Int(p)) => v.extend(p),
                (Some(Data::Bool(v)), Data::Bool(p)) => v.extend(p),
                (Some(Data::Str(v)), Data::Str(p)) => v.extend(p),
                _ => unreachable!("a kind decodes to its own kind"),
            }
            Ok(())
        })
        .map_err(at)?;
        let data = match data {
            Some(d) => d,
            None => npy::decode(&header, &[], 0).map_err(at)?,
        };
        let mut shape = h.shape.clone();
        shape[0] = rows.len();
        let data = if fortran {
            npy::to_c_order(data, &shape)
        } else {
            data
        };
        Ok(npy::Array { shape, data })
    }
}

#[cfg(test)]
#[path = "part/tests.rs"]
mod tests;
