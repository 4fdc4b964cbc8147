use super::{
    ContactDetails, ContactInput, ContactRules, Email, FieldErrors, Product, EMAIL_MESSAGE,
    PRODUCT_MESSAGE,
};

/// A quote request that passed every rule; the only way to get one is [`QuoteRequest::parse`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct QuoteRequest {
    product: Product,
    email: Email,
}

impl QuoteRequest {
    /// Checks both fields and reports every problem at once, so the form can show them together.
    pub fn parse(product: &str, email: &str) -> Result<QuoteRequest, FieldErrors> {
        let product = Product::parse(product);
        let email = Email::parse(email);
        match (product, email) {
            (Some(product), Some(email)) => Ok(QuoteRequest { product, email }),
            (product, email) => Err(FieldErrors {
                product: product.is_none().then_some(PRODUCT_MESSAGE),
                email: email.is_none().then_some(EMAIL_MESSAGE),
                ..FieldErrors::default()
            }),
        }
    }

    /// With the fields the broker added (`contact`), every problem of both at once.
    pub fn parse_with(
        product: &str,
        email: &str,
        contact: ContactInput<'_>,
        rules: ContactRules,
    ) -> Result<(QuoteRequest, ContactDetails), FieldErrors> {
        match (
            QuoteRequest::parse(product, email),
            ContactDetails::parse(contact, rules),
        ) {
            (Ok(request), Ok(details)) => Ok((request, details)),
            (request, details) => Err(request
                .err()
                .unwrap_or_default()
                .and(details.err().unwrap_or_default())),
        }
    }

    pub fn product(&self) -> Product {
        self.product
    }

    pub fn email(&self) -> &Email {
        &self.email
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn valid_values_are_trimmed() {
        let quote = QuoteRequest::parse(" medicare ", "  ana@example.com\t").unwrap();
        assert_eq!(quote.product(), Product::Medicare);
        assert_eq!(quote.email().as_str(), "ana@example.com");
    }

    #[test]
    fn both_problems_are_reported_together() {
        let errors = QuoteRequest::parse("", "not-an-email").unwrap_err();
        assert_eq!(errors.product, Some(PRODUCT_MESSAGE));
        assert_eq!(errors.email, Some(EMAIL_MESSAGE));
    }

    #[test]
    fn one_problem_leaves_the_other_field_clean() {
        let errors = QuoteRequest::parse("employer", "").unwrap_err();
        assert_eq!(
            errors,
            FieldErrors {
                email: Some(EMAIL_MESSAGE),
                ..FieldErrors::default()
            }
        );
        let errors = QuoteRequest::parse("", "a@b.co").unwrap_err();
        assert_eq!(
            errors,
            FieldErrors {
                product: Some(PRODUCT_MESSAGE),
                ..FieldErrors::default()
            }
        );
    }
}
