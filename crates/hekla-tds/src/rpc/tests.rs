use super::*;

fn int_param(name: &str, value: i32, output: bool) -> ClientParameter {
    ClientParameter {
        name: name.to_string(),
        output,
        value: ClientValue::Scalar(DataType::Int, Value::Int(value)),
    }
}

fn nvarchar(text: &str) -> ClientValue {
    ClientValue::Scalar(
        DataType::NVarChar {
            len: Length::Bounded(4000),
            collation: Collation::default(),
        },
        Value::String(text.to_string()),
    )
}

#[test]
fn a_call_with_scalar_and_output_parameters() {
    let mut wire = Vec::new();
    let statement = ClientParameter {
        name: String::new(),
        output: false,
        value: nvarchar("SELECT @a"),
    };
    encode_call(
        &mut wire,
        "sp_executesql",
        &[statement, int_param("@a", 5, true)],
    )
    .unwrap();
    let calls = decode(&mut Reader::new(&wire)).unwrap();
    assert_eq!(calls.len(), 1);
    let call = &calls[0];
    assert_eq!(call.procedure, "sp_executesql");
    assert_eq!(call.parameters[0].name, None);
    assert_eq!(
        call.parameters[0].value,
        RpcValue::Scalar(Value::String("SELECT @a".into()))
    );
    assert_eq!(call.parameters[1].bare_name(), Some("a"));
    assert!(call.parameters[1].output);
    assert_eq!(call.parameters[1].data_type, DataType::Int);
}

#[test]
fn procedure_ids_and_several_calls() {
    // sp_prepexec by id, then a second call by name after a batch flag.
    let mut wire = vec![0xFF, 0xFF, 13, 0, 0, 0];
    wire.push(BATCH_FLAG);
    encode_call(&mut wire, "dbo.p", &[int_param("@x", 1, false)]).unwrap();
    let calls = decode(&mut Reader::new(&wire)).unwrap();
    assert_eq!(calls[0].procedure, "sp_prepexec");
    assert_eq!(calls[1].procedure, "dbo.p");
    assert_eq!(calls[1].parameters.len(), 1);
}

#[test]
fn table_valued_parameters() {
    let columns = vec![
        DataType::Int,
        DataType::NVarChar {
            len: Length::Bounded(10),
            collation: Collation::default(),
        },
    ];
    let rows = vec![
        vec![Value::Int(1), Value::String("a".into())],
        vec![Value::Int(2), Value::Null],
    ];
    let mut wire = Vec::new();
    let tvp = ClientParameter {
        name: "@lines".into(),
        output: false,
        value: ClientValue::Table {
            type_schema: "dbo".into(),
            type_name: "OrderLines".into(),
            columns,
            rows: rows.clone(),
        },
    };
    encode_call(&mut wire, "InsertOrder", &[tvp]).unwrap();
    let calls = decode(&mut Reader::new(&wire)).unwrap();
    assert_eq!(
        calls[0].parameters[0].value,
        RpcValue::Table {
            type_schema: "dbo".into(),
            type_name: "OrderLines".into(),
            rows,
        }
    );
}

#[test]
fn malformed_requests_are_errors() {
    let mut wire = Vec::new();
    encode_call(&mut wire, "p", &[int_param("@x", 1, false)]).unwrap();
    // Every truncation inside the call is an error, never a panic (at 6
    // bytes it is a call without parameters).
    for end in (1..wire.len()).filter(|&end| end != 6) {
        assert!(
            decode(&mut Reader::new(&wire[..end])).is_err(),
            "cut at {end}"
        );
    }
    // Unknown procedure id, NoExec flag, stray byte.
    assert!(decode(&mut Reader::new(&[0xFF, 0xFF, 99, 0, 0, 0])).is_err());
    let mut no_exec = wire.clone();
    no_exec.push(NO_EXEC_FLAG);
    assert!(decode(&mut Reader::new(&no_exec)).is_err());
    // Encrypted and DEFAULT parameters are refused clearly.
    for flag in [ENCRYPTED, DEFAULT_VALUE] {
        let mut flagged = wire.clone();
        // name "p": 2 + 2 + 2 option bytes, then "@x" B_VARCHAR (5 bytes)
        flagged[4 + 2 + 5] = flag;
        let error = decode(&mut Reader::new(&flagged)).unwrap_err();
        assert!(error.0.contains("not supported"), "{error}");
    }
}

#[test]
fn value_budget_bounds_what_a_request_decodes() {
    // A TVP of one bit column and more rows than the budget allows: each
    // row is two bytes on the wire, so the message itself is small.
    let mut wire = vec![
        1,
        0,
        b'p',
        0,
        0,
        0,
        2,
        b'@',
        0,
        b't',
        0,
        0,
        code::TVP,
        0,
        0,
        1,
        b'T',
        0,
    ];
    wire.extend_from_slice(&1u16.to_le_bytes());
    wire.extend_from_slice(&[0, 0, 0, 0, 1, 0, code::BITN, 1, 0, TVP_END]);
    for _ in 0..=MAX_VALUES {
        wire.extend_from_slice(&[TVP_ROW, 0]);
    }
    wire.push(TVP_END);
    let error = decode(&mut Reader::new(&wire)).unwrap_err();
    assert!(error.0.contains("values in one request"), "{error}");
}

#[test]
fn zero_padding_after_the_last_parameter_is_ignored() {
    let mut wire = Vec::new();
    let guid = ClientParameter {
        name: "@g".into(),
        output: false,
        value: ClientValue::Scalar(DataType::UniqueIdentifier, Value::Null),
    };
    encode_call(&mut wire, "p", &[guid]).unwrap();
    // What go-mssqldb sends for a NULL uniqueidentifier: 16 bytes follow.
    wire.extend_from_slice(&[0; 16]);
    let calls = decode(&mut Reader::new(&wire)).unwrap();
    assert_eq!(calls[0].parameters.len(), 1);
    assert_eq!(calls[0].parameters[0].value, RpcValue::Scalar(Value::Null));
    // Anything else after the parameters is still an error.
    wire.push(1);
    assert!(decode(&mut Reader::new(&wire)).is_err());
}
