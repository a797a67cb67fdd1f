//! Request bodies: JSON, or multipart form data with a `payload_json` part and files.

use super::*;

/// The JSON body and files of a request, or why the body could not be read.
pub(super) fn parse_body(
    content_type: &str,
    body: &[u8],
) -> (Value, Vec<FilePart>, Option<String>) {
    if content_type.starts_with("multipart/form-data") {
        return match parse_multipart(content_type, body) {
            Ok((json, files)) => (json, files, None),
            Err(e) => (Value::Null, Vec::new(), Some(format!("multipart: {e}"))),
        };
    }
    if body.is_empty() {
        return (Value::Null, Vec::new(), None);
    }
    match serde_json::from_slice(body) {
        Ok(v) => (v, Vec::new(), None),
        Err(e) => (
            Value::String(String::from_utf8_lossy(body).into_owned()),
            Vec::new(),
            Some(e.to_string()),
        ),
    }
}

pub(super) fn find(haystack: &[u8], needle: &[u8], from: usize) -> Option<usize> {
    if from > haystack.len() {
        return None;
    }
    haystack[from..]
        .windows(needle.len())
        .position(|w| w == needle)
        .map(|p| p + from)
}

/// `name="value"` parameters of a header like Content-Disposition, quotes respected.
pub(super) fn header_params(value: &str) -> HashMap<String, String> {
    let mut out = HashMap::new();
    let mut rest = value;
    while let Some(eq) = rest.find('=') {
        let key = rest[..eq]
            .rsplit(';')
            .next()
            .unwrap_or("")
            .trim()
            .to_ascii_lowercase();
        let after = &rest[eq + 1..];
        let (val, next) = if let Some(stripped) = after.strip_prefix('"') {
            let mut val = String::new();
            let mut chars = stripped.char_indices();
            let mut end = stripped.len();
            while let Some((i, c)) = chars.next() {
                match c {
                    '\\' => {
                        if let Some((_, n)) = chars.next() {
                            val.push(n);
                        }
                    }
                    '"' => {
                        end = i + 1;
                        break;
                    }
                    c => val.push(c),
                }
            }
            (val, &stripped[end.min(stripped.len())..])
        } else {
            let end = after.find(';').unwrap_or(after.len());
            (after[..end].trim().to_string(), &after[end..])
        };
        out.insert(key, val);
        rest = next;
    }
    out
}

/// A multipart/form-data body: the `payload_json` part (other text fields merged into it)
/// and the file parts.
pub(super) fn parse_multipart(
    content_type: &str,
    body: &[u8],
) -> Result<(Value, Vec<FilePart>), String> {
    let boundary = header_params(content_type)
        .remove("boundary")
        .ok_or("no boundary in Content-Type")?;
    let delimiter = format!("--{boundary}").into_bytes();
    let mut next_delimiter = b"\r\n".to_vec();
    next_delimiter.extend_from_slice(&delimiter);
    let mut pos = find(body, &delimiter, 0).ok_or("no opening boundary")? + delimiter.len();
    let mut json = Value::Null;
    let mut fields = Map::new();
    let mut files = Vec::new();
    loop {
        if body[pos..].starts_with(b"--") {
            break;
        }
        if !body[pos..].starts_with(b"\r\n") {
            return Err("boundary not followed by CRLF".into());
        }
        pos += 2;
        let header_end = find(body, b"\r\n\r\n", pos).ok_or("part headers not terminated")?;
        let headers = std::str::from_utf8(&body[pos..header_end]).map_err(|e| e.to_string())?;
        let content_start = header_end + 4;
        let end = find(body, &next_delimiter, content_start).ok_or("part not terminated")?;
        let content = &body[content_start..end];
        pos = end + next_delimiter.len();

        let mut disposition = HashMap::new();
        let mut part_type = String::new();
        for line in headers.split("\r\n") {
            let Some((name, value)) = line.split_once(':') else {
                continue;
            };
            match name.trim().to_ascii_lowercase().as_str() {
                "content-disposition" => disposition = header_params(value),
                "content-type" => part_type = value.trim().to_string(),
                _ => {}
            }
        }
        let name = disposition
            .get("name")
            .cloned()
            .ok_or("part without a name")?;
        match disposition.get("filename") {
            Some(filename) => files.push(FilePart {
                field: name,
                filename: filename.clone(),
                content_type: part_type,
                data: content.to_vec(),
            }),
            None => {
                let text = String::from_utf8_lossy(content).into_owned();
                if name == "payload_json" {
                    json = serde_json::from_str(&text).map_err(|e| format!("payload_json: {e}"))?;
                } else {
                    fields.insert(name, Value::String(text));
                }
            }
        }
    }
    if !fields.is_empty() {
        if json.is_null() {
            json = Value::Object(Map::new());
        }
        if let Some(obj) = json.as_object_mut() {
            for (k, v) in fields {
                obj.entry(k).or_insert(v);
            }
        }
    }
    Ok((json, files))
}
