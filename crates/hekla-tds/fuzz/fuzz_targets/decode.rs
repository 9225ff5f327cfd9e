//! Fuzz target `decode`: every decoder of wire data the server (and its
//! client) has, fed arbitrary bytes. The first byte picks the decoder. A
//! panic, a hang or an allocation beyond the input's size is a bug; where a
//! decoder has an encoder, what decodes must encode and decode to the same.
#![no_main]

use hekla_tds::client::Response;
use hekla_tds::login7::Login7;
use hekla_tds::packet::{read_message, Limits};
use hekla_tds::prelogin::Prelogin;
use hekla_tds::types::TypeInfo;
use hekla_tds::wire::Reader;
use hekla_tds::{request, rpc};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Some((&selector, input)) = data.split_first() else {
        return;
    };
    match selector % 8 {
        0 => {
            if let Ok(prelogin) = Prelogin::decode(input) {
                assert_eq!(Prelogin::decode(&prelogin.encode()).as_ref(), Ok(&prelogin));
            }
        }
        1 => {
            if let Ok(login) = Login7::decode(input) {
                let again = Login7::decode(&login.encode()).expect("an encoded login decodes");
                assert_eq!(again.user_name, login.user_name);
                assert_eq!(again.password, login.password);
                assert_eq!(again.database, login.database);
            }
        }
        2 => {
            let mut reader = Reader::new(input);
            let _ = request::skip_all_headers(&mut reader).and_then(|()| rpc::decode(&mut reader));
        }
        3 => {
            let _ = request::batch_text(input);
        }
        4 => {
            let _ = request::transaction_statement(input);
        }
        5 => {
            let _ = Response::decode(input);
        }
        6 => {
            let mut reader = Reader::new(input);
            if let Ok(info) = TypeInfo::decode(&mut reader) {
                // Values of NULLTYPE take no bytes: stop when nothing moves.
                let mut last = usize::MAX;
                while !reader.is_empty() && reader.position() != last {
                    last = reader.position();
                    if info.decode_value(&mut reader).is_err() {
                        break;
                    }
                }
            }
        }
        _ => {
            let runtime = tokio::runtime::Builder::new_current_thread()
                .build()
                .expect("runtime");
            let limits = Limits {
                packet_size: 4096,
                message_size: 16 * 1024,
            };
            let mut stream = input;
            runtime.block_on(async { while read_message(&mut stream, limits).await.is_ok() {} });
        }
    }
});
