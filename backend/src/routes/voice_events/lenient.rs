//! How the provider's fields are read: a field of another shape than ours reads as absent, as a
//! message type or version we do not know is no reason to refuse the message (the API's document
//! lets every field we do not bound have any shape), and a structure is read from a JSON object
//! only.

use std::fmt;
use std::marker::PhantomData;

use serde::de::value::MapAccessDeserializer;
use serde::de::{MapAccess, Visitor};
use serde::{Deserialize, Deserializer};
use serde_with::{DefaultOnError, DeserializeAs, Same};

/// A text or number field: absent when it has another shape.
pub type Lenient = DefaultOnError;
/// A structure: absent when it is not an object.
pub type LenientObject = DefaultOnError<Option<Object>>;
/// A list of structures: absent when it is not an array; an entry that is not an object reads as
/// an empty structure, so it still counts towards the list's bound.
pub type LenientList = DefaultOnError<Option<Vec<DefaultOnError<Object>>>>;

/// A field that counts as given whenever its key is there: null or of another shape, it is read
/// as the default (a structure from an object only, as `Given<Object>`).
pub struct Given<TAs = Same>(PhantomData<TAs>);

impl<'de, T: Default, TAs: DeserializeAs<'de, T>> DeserializeAs<'de, Option<T>> for Given<TAs> {
    fn deserialize_as<D: Deserializer<'de>>(deserializer: D) -> Result<Option<T>, D::Error> {
        DefaultOnError::<TAs>::deserialize_as(deserializer).map(Some)
    }
}

/// Reads a structure from a JSON object only: serde_json would also fill one from an array, by
/// position (serde-rs/serde#1587), which no provider message means.
pub struct Object;

impl<'de, T: Deserialize<'de>> DeserializeAs<'de, T> for Object {
    fn deserialize_as<D: Deserializer<'de>>(deserializer: D) -> Result<T, D::Error> {
        deserializer.deserialize_map(Fields(PhantomData))
    }
}

struct Fields<T>(PhantomData<T>);

impl<'de, T: Deserialize<'de>> Visitor<'de> for Fields<T> {
    type Value = T;

    fn expecting(&self, formatter: &mut fmt::Formatter) -> fmt::Result {
        formatter.write_str("a JSON object")
    }

    fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<T, A::Error> {
        T::deserialize(MapAccessDeserializer::new(map))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::{json, Value};
    use serde_with::As;

    #[derive(Debug, Default, Deserialize, PartialEq)]
    struct Call {
        #[serde(default, deserialize_with = "As::<Lenient>::deserialize")]
        id: Option<String>,
    }

    #[derive(Debug, Deserialize, PartialEq)]
    struct Message {
        #[serde(default, deserialize_with = "As::<Given<Object>>::deserialize")]
        given: Option<Call>,
        #[serde(default, deserialize_with = "As::<LenientObject>::deserialize")]
        call: Option<Call>,
        #[serde(default, deserialize_with = "As::<LenientList>::deserialize")]
        calls: Option<Vec<Call>>,
    }

    fn read(value: Value) -> Message {
        Object::deserialize_as(value).unwrap()
    }

    #[test]
    fn other_shapes_read_as_absent_and_structures_only_from_objects() {
        let id = |id: &str| {
            Some(Call {
                id: Some(id.into()),
            })
        };
        assert_eq!(read(json!({"call": {"id": "k"}})).call, id("k"));
        for call in [
            json!(null),
            json!(5),
            json!("k"),
            json!(["k"]),
            json!([{"id": "k"}]),
        ] {
            assert_eq!(read(json!({ "call": call })).call, None, "{call}");
        }
        assert_eq!(read(json!({"call": {"id": 5}})).call, Some(Call::default()));
        let list = read(json!({"calls": [{"id": "a"}, 1, ["b"], {"id": []}]})).calls;
        assert_eq!(
            list,
            Some(vec![
                id("a").unwrap(),
                Call::default(),
                Call::default(),
                Call::default()
            ])
        );
        assert_eq!(read(json!({"calls": {"id": "a"}})).calls, None);
        assert_eq!(read(json!({"calls": []})).calls, Some(vec![]));
        assert_eq!(read(json!({})).given, None);
        for given in [json!(null), json!(["k"]), json!({})] {
            assert_eq!(read(json!({ "given": given })).given, Some(Call::default()));
        }
        let not_an_object: Result<Message, _> = Object::deserialize_as(json!([{"id": "k"}]));
        assert!(not_an_object.is_err());
    }
}
