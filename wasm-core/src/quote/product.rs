use serde::Serialize;

/// The plans a visitor can ask a quote for (docs/product.md §3).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Product {
    Medicare,
    Individual,
    Family,
    Medicaid,
    Employer,
}

impl Product {
    /// In dropdown order.
    pub const ALL: [Product; 5] = [
        Product::Medicare,
        Product::Individual,
        Product::Family,
        Product::Medicaid,
        Product::Employer,
    ];

    /// The value sent over the wire and stored.
    pub fn as_str(self) -> &'static str {
        match self {
            Product::Medicare => "medicare",
            Product::Individual => "individual",
            Product::Family => "family",
            Product::Medicaid => "medicaid",
            Product::Employer => "employer",
        }
    }

    /// The dropdown label.
    pub fn label(self) -> &'static str {
        match self {
            Product::Medicare => "Medicare",
            Product::Individual => "Individual Health",
            Product::Family => "Family Health",
            Product::Medicaid => "Medicaid",
            Product::Employer => "Employer Plan",
        }
    }

    /// Accepts exactly one of the wire values, after trimming surrounding white space.
    pub fn parse(raw: &str) -> Option<Product> {
        let value = raw.trim();
        Product::ALL.into_iter().find(|p| p.as_str() == value)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_product_round_trips_through_its_wire_value() {
        for product in Product::ALL {
            assert_eq!(Product::parse(product.as_str()), Some(product));
        }
    }

    #[test]
    fn labels_match_the_spec() {
        let labels: Vec<_> = Product::ALL.iter().map(|p| p.label()).collect();
        assert_eq!(
            labels,
            [
                "Medicare",
                "Individual Health",
                "Family Health",
                "Medicaid",
                "Employer Plan"
            ]
        );
    }

    #[test]
    fn trims_but_does_not_fold_case_or_accept_labels() {
        assert_eq!(Product::parse("  family\n"), Some(Product::Family));
        assert_eq!(Product::parse("Family"), None);
        assert_eq!(Product::parse("Family Health"), None);
        assert_eq!(Product::parse(""), None);
        assert_eq!(Product::parse("dental"), None);
    }
}
