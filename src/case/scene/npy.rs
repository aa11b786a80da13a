//! NumPy `.npy` arrays and `.npz` archives of them, read strictly.
//!
//! The `.npy` format is a magic string, a version, a header that is a
//! Python dict literal (`{'descr': '<f8', 'fortran_order': False, 'shape':
//! (N, 3), }`) and the raw data. meff reads numeric (`f2`/`f4`/`f8`,
//! signed and unsigned integers), boolean (`b1`) and fixed-width Unicode
//! (`U`) arrays in either byte order and either memory order; object arrays
//! (`O`: pickles) are refused — loading them would run code. The header is
//! parsed by hand because it is a small, fixed grammar and the messages
//! must name the array; the archive is read with the `zip` crate.
//!
//! Every size is checked before anything is allocated: the element count
//! times the item size must equal the bytes that follow the header, and the
//! bytes read from an archive are capped (a zip bomb stops at the cap).

use std::io::Read;

/// The values of an array, converted to the widest type of their kind.
#[derive(Clone, Debug, PartialEq)]
pub enum Data {
    /// Floating point.
    Float(Vec<f64>),
    /// Integers.
    Int(Vec<i64>),
    /// Booleans.
    Bool(Vec<bool>),
    /// Strings.
    Str(Vec<String>),
}

/// An array: shape (C order) and values.
#[derive(Clone, Debug, PartialEq)]
pub struct Array {
    /// Extent of each axis.
    pub shape: Vec<usize>,
    /// Values in C (row-major) order.
    pub data: Data,
}

impl Array {
    /// Number of elements.
    pub fn len(&self) -> usize {
        self.shape.iter().product()
    }

    /// True when the array has no elements.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The kind of the values, for messages.
    pub fn kind(&self) -> &'static str {
        match self.data {
            Data::Float(_) => "floating-point",
            Data::Int(_) => "integer",
            Data::Bool(_) => "boolean",
            Data::Str(_) => "string",
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) enum Kind {
    Float,
    Int,
    UInt,
    Bool,
    Unicode,
}

pub(super) struct Header {
    pub(super) kind: Kind,
    pub(super) little: bool,
    pub(super) size: usize,
    pub(super) fortran: bool,
    pub(super) shape: Vec<usize>,
}

/// The header of a `.npy` file and where its data starts; an error when
/// `bytes` does not hold the whole header.
pub(super) fn header_of(bytes: &[u8]) -> Result<(Header, usize), String> {
    if bytes.len() < 10 || &bytes[..6] != b"\x93NUMPY" {
        return Err("not a NumPy .npy array (the magic string is missing)".into());
    }
    let major = bytes[6];
    let (len, start) = match major {
        1 => (u16::from_le_bytes([bytes[8], bytes[9]]) as usize, 10usize),
        2 | 3 => {
            if bytes.len() < 12 {
                return Err("the .npy header is cut short".into());
            }
            (
                u32::from_le_bytes([bytes[8], bytes[9], bytes[10], bytes[11]]) as usize,
                12,
            )
        }
        v => return Err(format!(".npy format version {v} is not known")),
    };
    let end = start
        .checked_add(len)
        .filter(|&e| e <= bytes.len())
        .ok_or("the .npy header is cut short")?;
    let text = std::str::from_utf8(&bytes[start..end])
        .map_err(|_| "the .npy header is not text".to_string())?;
    Ok((header(text)?, end))
}

/// Longest `.npy` header read in the first pass over an archive (NumPy
/// writes 128 bytes or a little more; the format allows 4 GiB).
pub(super) const MAX_HEADER: u64 = 1 << 16;

/// Parses one `.npy` file. `max_elements` bounds the element count.
pub fn parse(bytes: &[u8], max_elements: usize) -> Result<Array, String> {
    let (h, end) = header_of(bytes)?;
    let data = &bytes[end..];
    let (count, _) = data_size(&h, data.len() as u64, max_elements)?;
    let values = decode(&h, data, count)?;
    let values = if h.fortran && h.shape.len() > 1 {
        to_c_order(values, &h.shape)
    } else {
        values
    };
    Ok(Array {
        shape: h.shape,
        data: values,
    })
}

/// The element count of `h`'s shape (at most `max_elements`) and the bytes
/// of data it needs; an error unless `have` bytes follow the header.
pub(super) fn data_size(
    h: &Header,
    have: u64,
    max_elements: usize,
) -> Result<(usize, usize), String> {
    let count = h
        .shape
        .iter()
        .try_fold(1usize, |a, &d| a.checked_mul(d))
        .filter(|&n| n <= max_elements)
        .ok_or_else(|| {
            format!(
                "the array has shape {:?}: more than the {max_elements} elements meff reads",
                h.shape
            )
        })?;
    let need = count.checked_mul(h.size).ok_or("the array is too large")?;
    if have != need as u64 {
        return Err(format!(
            "the array should hold {need} bytes of data for shape {:?}, the file has {have}",
            h.shape
        ));
    }
    Ok((count, need))
}

fn header(text: &str) -> Result<Header, String> {
    let field = |key: &str| -> Result<&str, String> {
        let pat = format!("'{key}':");
        let at = text
            .find(&pat)
            .ok_or_else(|| format!("the .npy header has no '{key}'"))?;
        Ok(text[at + pat.len()..].trim_start())
    };
    let descr = field("descr")?;
    let descr = descr
        .strip_prefix('\'')
        .and_then(|d| d.split('\'').next())
        .ok_or("the .npy header's 'descr' is not a type string (structured arrays are not read)")?;
    let fortran = field("fortran_order")?;
    let fortran = if fortran.starts_with("True") {
        true
    } else if fortran.starts_with("False") {
        false
    } else {
        return Err("the .npy header's 'fortran_order' is neither True nor False".into());
    };
    let shape = field("shape")?;
    let shape = shape
        .strip_prefix('(')
        .and_then(|s| s.split(')').next())
        .ok_or("the .npy header's 'shape' is not a tuple")?;
    let mut dims = Vec::new();
    for part in shape.split(',').map(str::trim).filter(|p| !p.is_empty()) {
        let part = part.trim_end_matches('L');
        dims.push(
            part.parse::<usize>()
                .map_err(|_| format!("the .npy shape has the extent `{part}`"))?,
        );
    }
    let mut chars = descr.chars();
    let order = chars.next().ok_or("the .npy type is empty")?;
    let little = match order {
        '<' | '|' | '=' => true,
        '>' => false,
        _ => return Err(format!("the .npy type `{descr}` has no byte order")),
    };
    let code = chars.next().ok_or("the .npy type is empty")?;
    if code == 'O' {
        return Err(
            "the array holds Python objects (a pickle); meff does not load pickles: save names as strings (`np.array(names, dtype=str)`)".into(),
        );
    }
    let width: usize = chars
        .as_str()
        .parse()
        .map_err(|_| format!("the .npy type `{descr}` is not read by meff"))?;
    let (kind, size) = match (code, width) {
        ('f', 2 | 4 | 8) => (Kind::Float, width),
        ('i', 1 | 2 | 4 | 8) => (Kind::Int, width),
        ('u', 1 | 2 | 4 | 8) => (Kind::UInt, width),
        ('b', 1) => (Kind::Bool, 1),
        ('U', w) if w > 0 && w <= 4096 => (Kind::Unicode, 4 * w),
        _ => return Err(format!("the .npy type `{descr}` is not read by meff")),
    };
    Ok(Header {
        kind,
        little,
        size,
        fortran,
        shape: dims,
    })
}

pub(super) fn decode(h: &Header, data: &[u8], count: usize) -> Result<Data, String> {
    let item = |k: usize| -> [u8; 8] {
        let mut b = [0u8; 8];
        let src = &data[k * h.size..(k + 1) * h.size];
        if h.little {
            b[..h.size].copy_from_slice(src);
        } else {
            for (d, s) in b[..h.size].iter_mut().zip(src.iter().rev()) {
                *d = *s;
            }
        }
        b
    };
    // The common layouts (little-endian 8-byte floats and integers) as one
    // straight conversion: the general path below costs a branch an item.
    let eight = || data[..count * 8].chunks_exact(8);
    match h.kind {
        Kind::Float if h.little && h.size == 8 => {
            return Ok(Data::Float(
                eight()
                    .map(|b| f64::from_le_bytes(b.try_into().expect("8 bytes")))
                    .collect(),
            ));
        }
        Kind::Int if h.little && h.size == 8 => {
            return Ok(Data::Int(
                eight()
                    .map(|b| i64::from_le_bytes(b.try_into().expect("8 bytes")))
                    .collect(),
            ));
        }
        _ => {}
    }
    Ok(match h.kind {
        Kind::Float => Data::Float(
            (0..count)
                .map(|k| {
                    let b = item(k);
                    match h.size {
                        8 => f64::from_le_bytes(b),
                        4 => f32::from_le_bytes([b[0], b[1], b[2], b[3]]) as f64,
                        _ => half_to_f64(u16::from_le_bytes([b[0], b[1]])),
                    }
                })
                .collect(),
        ),
        Kind::Int => Data::Int(
            (0..count)
                .map(|k| {
                    let b = item(k);
                    // Sign-extend from the item's width.
                    let v = i64::from_le_bytes(b);
                    let shift = 64 - 8 * h.size as u32;
                    (v << shift) >> shift
                })
                .collect(),
        ),
        Kind::UInt => Data::Int(
            (0..count)
                .map(|k| {
                    let v = u64::from_le_bytes(item(k));
                    i64::try_from(v).map_err(|_| format!("the unsigned value {v} is too large"))
                })
                .collect::<Result<_, _>>()?,
        ),
        Kind::Bool => Data::Bool(
            (0..count)
                .map(|k| match data[k] {
                    0 => Ok(false),
                    1 => Ok(true),
                    v => Err(format!("element {k} of a boolean array is the byte {v}")),
                })
                .collect::<Result<_, _>>()?,
        ),
        Kind::Unicode => Data::Str(
            (0..count)
                .map(|k| {
                    let src = &data[k * h.size..(k + 1) * h.size];
                    let mut s = String::new();
                    for c in src.chunks_exact(4) {
                        let u = if h.little {
                            u32::from_le_bytes([c[0], c[1], c[2], c[3]])
                        } else {
                            u32::from_be_bytes([c[0], c[1], c[2], c[3]])
                        };
                        if u == 0 {
                            break;
                        }
                        s.push(char::from_u32(u).ok_or_else(|| {
                            format!("string {k} holds the invalid code point {u:#x}")
                        })?);
                    }
                    Ok(s)
                })
                .collect::<Result<_, String>>()?,
        ),
    })
}

fn half_to_f64(h: u16) -> f64 {
    let sign = if h & 0x8000 != 0 { -1.0 } else { 1.0 };
    let exp = ((h >> 10) & 0x1f) as i32;
    let frac = (h & 0x3ff) as f64;
    sign * match exp {
        0 => frac * 2f64.powi(-24),
        31 if frac == 0.0 => f64::INFINITY,
        31 => f64::NAN,
        e => (1.0 + frac / 1024.0) * 2f64.powi(e - 15),
    }
}

/// Reorders Fortran-order values into C order.
pub(super) fn to_c_order(data: Data, shape: &[usize]) -> Data {
    let n: usize = shape.iter().product();
    // The C-order index of each Fortran-order position.
    let target = |f: usize| -> usize {
        let mut rest = f;
        let mut c = 0;
        let mut stride = 1;
        let mut strides = vec![0; shape.len()];
        for (a, s) in strides.iter_mut().enumerate().rev() {
            *s = stride;
            stride *= shape[a];
        }
        for (a, &d) in shape.iter().enumerate() {
            c += (rest % d) * strides[a];
            rest /= d;
        }
        c
    };
    fn reorder<T: Clone>(v: Vec<T>, n: usize, target: impl Fn(usize) -> usize) -> Vec<T> {
        let mut out: Vec<Option<T>> = vec![None; n];
        for (f, x) in v.into_iter().enumerate() {
            out[target(f)] = Some(x);
        }
        out.into_iter().map(|x| x.expect("a permutation")).collect()
    }
    match data {
        Data::Float(v) => Data::Float(reorder(v, n, target)),
        Data::Int(v) => Data::Int(reorder(v, n, target)),
        Data::Bool(v) => Data::Bool(reorder(v, n, target)),
        Data::Str(v) => Data::Str(reorder(v, n, target)),
    }
}

/// A test of the arrays' names and shapes, run before any is decoded.
pub type ShapeCheck<'a> = dyn Fn(&[(String, Vec<usize>)]) -> Result<(), String> + 'a;

/// The arrays of an `.npz` archive, by name without `.npy`, in archive
/// order. At most `max_bytes` are decompressed in all. Before any array is
/// decoded, every array's header is read (a few bytes decompressed each)
/// and `check` sees the names and shapes: a wrong shape is refused
/// without decoding a billion values first.
pub fn read_npz(
    path: &std::path::Path,
    max_bytes: u64,
    max_elements: usize,
    check: &ShapeCheck<'_>,
) -> Result<Vec<(String, Array)>, String> {
    let file = std::fs::File::open(path).map_err(|e| e.to_string())?;
    let mut zip =
        zip::ZipArchive::new(file).map_err(|e| format!("not a NumPy .npz archive ({e})"))?;
    let mut shapes = Vec::new();
    for k in 0..zip.len() {
        let mut entry = zip.by_index(k).map_err(|e| e.to_string())?;
        let name = entry.name().map_err(|e| e.to_string())?.to_string();
        let Some(stem) = name.strip_suffix(".npy") else {
            continue;
        };
        let mut head = Vec::new();
        let size = entry.size();
        (&mut entry)
            .take(MAX_HEADER.min(size))
            .read_to_end(&mut head)
            .map_err(|e| format!("array `{stem}`: {e}"))?;
        let (h, _) = header_of(&head).map_err(|e| format!("array `{stem}`: {e}"))?;
        shapes.push((stem.to_string(), h.shape));
    }
    check(&shapes)?;
    let mut budget = max_bytes;
    let mut out = Vec::new();
    for k in 0..zip.len() {
        let mut entry = zip.by_index(k).map_err(|e| e.to_string())?;
        let name = entry.name().map_err(|e| e.to_string())?.to_string();
        let Some(stem) = name.strip_suffix(".npy") else {
            continue;
        };
        let stem = stem.to_string();
        if entry.size() > budget {
            return Err(format!(
                "the arrays decompress to more than the input limit of {max_bytes} bytes (raise it with --max-input-bytes)"
            ));
        }
        // Numeric arrays are decoded as they are decompressed, a chunk at
        // a time, into their column: no second copy of the raw bytes (at
        // 10⁷ bodies the largest array is 0.7 GB).
        let streamed =
            stream_numeric(&mut entry, max_elements).map_err(|e| format!("array `{stem}`: {e}"))?;
        let declared = entry.size();
        drop(entry);
        if let Some(array) = streamed {
            budget -= declared;
            out.push((stem, array));
            continue;
        }
        let mut entry = zip.by_index(k).map_err(|e| e.to_string())?;
        let cap = budget.min(entry.size()).saturating_add(1);
        // Room for the size the archive states, as far as the budget and
        // deflate's ratio (at most 1032:1) allow: growing by doubling
        // re-touched the largest arrays' pages.
        let room = cap.min(
            entry
                .compressed_size()
                .saturating_mul(1032)
                .saturating_add(64),
        );
        let mut bytes = Vec::with_capacity(usize::try_from(room).unwrap_or(0));
        (&mut entry)
            .take(cap)
            .read_to_end(&mut bytes)
            .map_err(|e| format!("array `{stem}`: {e}"))?;
        if bytes.len() as u64 > budget {
            return Err(format!(
                "the arrays decompress to more than the input limit of {max_bytes} bytes (raise it with --max-input-bytes)"
            ));
        }
        if bytes.len() as u64 != entry.size() {
            return Err(format!(
                "array `{stem}`: the archive says {} bytes, {} were read",
                entry.size(),
                bytes.len()
            ));
        }
        budget -= bytes.len() as u64;
        // Decoded names cost a string each (24 bytes) beyond their text:
        // counted against the same limit, before they are made.
        if let Ok((h, _)) = header_of(&bytes)
            && h.kind == Kind::Unicode
        {
            let count: u64 = h.shape.iter().map(|&d| d as u64).product();
            let cost = count.saturating_mul(std::mem::size_of::<String>() as u64);
            if cost > budget {
                return Err(format!(
                    "array `{stem}`: {count} names decode to more than the input limit of {max_bytes} bytes (raise it with --max-input-bytes)"
                ));
            }
            budget -= cost;
        }
        let array = parse(&bytes, max_elements).map_err(|e| format!("array `{stem}`: {e}"))?;
        out.push((stem, array));
    }
    Ok(out)
}

/// Bytes decoded at a time by [`stream_numeric`].
const STREAM_CHUNK: usize = 1 << 20;

/// A numeric array (`f`, `i`, `u` kinds) decoded straight from `entry`, an
/// archive member of `entry.size()` bytes, a chunk at a time; `None` when
/// the array is of another kind (then nothing is decoded and the caller
/// reads the member again). The checks are [`parse`]'s: the element count
/// against `max_elements`, the data's length against the shape, and the
/// member must hold exactly the bytes the archive states.
fn stream_numeric(
    entry: &mut zip::read::ZipFile<'_, std::fs::File>,
    max_elements: usize,
) -> Result<Option<Array>, String> {
    let size = entry.size();
    let mut head = Vec::new();
    entry
        .take(MAX_HEADER.min(size))
        .read_to_end(&mut head)
        .map_err(|e| e.to_string())?;
    let (h, end) = header_of(&head)?;
    if !matches!(h.kind, Kind::Float | Kind::Int | Kind::UInt) {
        return Ok(None);
    }
    let (count, need) = data_size(&h, size - end as u64, max_elements)?;
    // What the header read took past the header is the data's start.
    let mut pending = head.split_off(end);
    let mut data = match h.kind {
        Kind::Float => Data::Float(Vec::with_capacity(count)),
        _ => Data::Int(Vec::with_capacity(count)),
    };
    let per = (STREAM_CHUNK / h.size).max(1) * h.size;
    let mut buf = vec![0u8; per];
    let mut done = 0usize;
    while done < need {
        let n = per.min(need - done);
        let from_head = pending.len().min(n);
        buf[..from_head].copy_from_slice(&pending[..from_head]);
        pending.drain(..from_head);
        entry
            .read_exact(&mut buf[from_head..n])
            .map_err(|_| format!("the archive says {size} bytes, fewer were read"))?;
        match (&mut data, decode(&h, &buf[..n], n / h.size)?) {
            (Data::Float(v), Data::Float(part)) => v.extend_from_slice(&part),
            (Data::Int(v), Data::Int(part)) => v.extend_from_slice(&part),
            _ => unreachable!("a numeric kind decodes to its own kind"),
        }
        done += n;
    }
    let mut more = [0u8; 1];
    if entry.read(&mut more).map_err(|e| e.to_string())? != 0 {
        return Err(format!("the archive says {size} bytes, more were read"));
    }
    let data = if h.fortran && h.shape.len() > 1 {
        to_c_order(data, &h.shape)
    } else {
        data
    };
    Ok(Some(Array {
        shape: h.shape,
        data,
    }))
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    pub(crate) fn npy(descr: &str, fortran: bool, shape: &str, data: &[u8]) -> Vec<u8> {
        let mut h = format!(
            "{{'descr': '{descr}', 'fortran_order': {}, 'shape': {shape}, }}",
            if fortran { "True" } else { "False" }
        );
        while (10 + h.len() + 1) % 64 != 0 {
            h.push(' ');
        }
        h.push('\n');
        let mut out = b"\x93NUMPY\x01\x00".to_vec();
        out.extend((h.len() as u16).to_le_bytes());
        out.extend(h.as_bytes());
        out.extend(data);
        out
    }

    #[test]
    fn reads_types_orders_and_layouts() {
        let data: Vec<u8> = [1.5f64, -2.0]
            .iter()
            .flat_map(|x| x.to_le_bytes())
            .collect();
        let a = parse(&npy("<f8", false, "(2,)", &data), 10).unwrap();
        assert_eq!(a.data, Data::Float(vec![1.5, -2.0]));
        let data: Vec<u8> = [1.5f64, -2.0]
            .iter()
            .flat_map(|x| x.to_be_bytes())
            .collect();
        let a = parse(&npy(">f8", false, "(2,)", &data), 10).unwrap();
        assert_eq!(a.data, Data::Float(vec![1.5, -2.0]));
        let data: Vec<u8> = [-1i32, 7].iter().flat_map(|x| x.to_le_bytes()).collect();
        let a = parse(&npy("<i4", false, "(2,)", &data), 10).unwrap();
        assert_eq!(a.data, Data::Int(vec![-1, 7]));
        // Fortran order: a 2×3 matrix stored by columns.
        let data: Vec<u8> = [1i64, 4, 2, 5, 3, 6]
            .iter()
            .flat_map(|x| x.to_le_bytes())
            .collect();
        let a = parse(&npy("<i8", true, "(2, 3)", &data), 10).unwrap();
        assert_eq!(a.data, Data::Int(vec![1, 2, 3, 4, 5, 6]));
        let s: Vec<u8> = "ab\0"
            .chars()
            .flat_map(|c| (c as u32).to_le_bytes())
            .collect();
        let a = parse(&npy("<U3", false, "(1,)", &s), 10).unwrap();
        assert_eq!(a.data, Data::Str(vec!["ab".into()]));
        assert_eq!(half_to_f64(0x3c00), 1.0);
        assert_eq!(half_to_f64(0xc000), -2.0);
    }

    #[test]
    fn refuses_pickles_short_data_and_huge_shapes() {
        assert!(
            parse(&npy("|O", false, "(1,)", &[0; 8]), 10)
                .unwrap_err()
                .contains("pickle")
        );
        assert!(
            parse(&npy("<f8", false, "(2,)", &[0; 8]), 10)
                .unwrap_err()
                .contains("16 bytes")
        );
        assert!(
            parse(
                &npy("<f8", false, "(99999999999, 99999999999)", &[]),
                1 << 20
            )
            .unwrap_err()
            .contains("elements")
        );
        assert!(parse(b"garbage", 10).is_err());
    }

    /// Numeric arrays decoded as they are decompressed (several chunks,
    /// every numeric type, both byte orders, Fortran order, stored and
    /// deflated members) are what the whole-file parser gives; a member
    /// whose data does not fill its shape is refused the same way.
    #[test]
    fn streamed_arrays_equal_the_whole_file_parse() {
        use std::io::Write;
        let n = 3 * STREAM_CHUNK / 16 + 5; // 2-d, 8-byte items: several chunks
        let f: Vec<u8> = (0..2 * n)
            .flat_map(|k| ((k as f64) * 0.37 - 11.0).to_le_bytes())
            .collect();
        let fb: Vec<u8> = (0..7)
            .flat_map(|k| (k as f32 - 2.5).to_be_bytes())
            .collect();
        let i4: Vec<u8> = (0..9).flat_map(|k: i32| (k * -3).to_le_bytes()).collect();
        let u2: Vec<u8> = (0..5).flat_map(|k: u16| (k * 1000).to_le_bytes()).collect();
        let fo: Vec<u8> = [1.0f64, 4.0, 2.0, 5.0, 3.0, 6.0]
            .iter()
            .flat_map(|x| x.to_le_bytes())
            .collect();
        let members = [
            ("big", npy("<f8", false, &format!("({n}, 2)"), &f)),
            ("be", npy(">f4", false, "(7,)", &fb)),
            ("ints", npy("<i4", false, "(9,)", &i4)),
            ("unsigned", npy("<u2", false, "(5,)", &u2)),
            ("fortran", npy("<f8", true, "(2, 3)", &fo)),
            ("flags", npy("|b1", false, "(2,)", &[1, 0])),
        ];
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path();
        for method in [
            zip::CompressionMethod::Stored,
            zip::CompressionMethod::Deflated,
        ] {
            let path = dir.join("a.npz");
            let mut z = zip::ZipWriter::new(std::fs::File::create(&path).unwrap());
            let opts = zip::write::SimpleFileOptions::default().compression_method(method);
            for (name, bytes) in &members {
                z.start_file(format!("{name}.npy"), opts).unwrap();
                z.write_all(bytes).unwrap();
            }
            z.finish().unwrap();
            let got = read_npz(&path, u64::MAX, usize::MAX, &|_| Ok(())).unwrap();
            assert_eq!(got.len(), members.len());
            for ((name, array), (want_name, bytes)) in got.iter().zip(&members) {
                assert_eq!(name, want_name);
                assert_eq!(array, &parse(bytes, usize::MAX).unwrap(), "{name}");
            }
            assert_eq!(
                got[4].1.data,
                Data::Float(vec![1.0, 2.0, 3.0, 4.0, 5.0, 6.0])
            );
            // Nine values for a shape of ten.
            let mut z = zip::ZipWriter::new(std::fs::File::create(&path).unwrap());
            z.start_file("x.npy", opts).unwrap();
            z.write_all(&npy("<f8", false, "(10,)", &f[..72])).unwrap();
            z.finish().unwrap();
            let e = read_npz(&path, u64::MAX, usize::MAX, &|_| Ok(())).unwrap_err();
            assert!(
                e.contains("should hold 80 bytes") && e.contains("`x`"),
                "{e}"
            );
            // The budget counts what the archive states.
            let e = read_npz(&path, 50, usize::MAX, &|_| Ok(())).unwrap_err();
            assert!(e.contains("input limit of 50 bytes"), "{e}");
        }
    }
}
