//! `#[lane_features]`: one source for the 8-lane engines, compiled once
//! per instruction set.
//!
//! An engine's code is written once, in files that a module per
//! instruction set includes (`#[path]`): `group::lanes::ifma` and
//! `group::lanes::avx2`. Each such module defines, before including them, a
//! `macro_rules! lane_features` that puts its own
//! `#[target_feature(enable = …)]` on an item. This attribute hands the item
//! it marks to that macro, so the same function is compiled with AVX-512
//! IFMA in one module and with AVX2 in the other, its tokens (and so the
//! compiler's messages) pointing at the one source.
//!
//! (curve25519-dalek's `unsafe_target_feature_specialize` does the same
//! for a module written inline; an engine of several files cannot be.)

use proc_macro::{Delimiter, Group, Ident, Punct, Spacing, Span, TokenStream, TokenTree};

/// Compiles the function it marks (a free function or a method)
/// with the target features of the instruction set whose module includes
/// the file: expands to `lane_features! { item }`, the `macro_rules!` that
/// module defines. Takes no arguments.
#[proc_macro_attribute]
pub fn lane_features(arguments: TokenStream, item: TokenStream) -> TokenStream {
    if let Some(argument) = arguments.into_iter().next() {
        return compile_error(argument.span(), "#[lane_features] takes no arguments");
    }
    // `lane_features! { item }`, resolved where the item is (call-site
    // hygiene): the instruction set's module's macro.
    TokenStream::from_iter([
        TokenTree::Ident(Ident::new("lane_features", Span::call_site())),
        TokenTree::Punct(Punct::new('!', Spacing::Alone)),
        TokenTree::Group(Group::new(Delimiter::Brace, item)),
    ])
}

/// `compile_error!("message")` at `span`.
fn compile_error(span: Span, message: &str) -> TokenStream {
    let mut literal = proc_macro::Literal::string(message);
    literal.set_span(span);
    let mut call = TokenStream::from_iter([
        TokenTree::Ident(Ident::new("compile_error", span)),
        TokenTree::Punct(Punct::new('!', Spacing::Alone)),
    ]);
    call.extend([TokenTree::Group(Group::new(
        Delimiter::Parenthesis,
        TokenStream::from_iter([TokenTree::Literal(literal)]),
    ))]);
    call
}
