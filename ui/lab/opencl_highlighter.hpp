// OpenCL C syntax colouring for the kernel lab's editor: keywords, scalar and vector types,
// address spaces and qualifiers (__kernel, __global, ...), comments, numbers, strings and
// preprocessor lines (#define, #pragma, ...).
#pragma once
#include <QRegularExpression>
#include <QSyntaxHighlighter>
#include <QTextCharFormat>
#include <vector>

namespace clscope::ui {

class OpenClHighlighter : public QSyntaxHighlighter {
    Q_OBJECT
  public:
    explicit OpenClHighlighter(QTextDocument* document);

    // The format a kind of token gets ("keyword", "type", "qualifier", "number", "comment",
    // "preprocessor", "string"): what the tests and the legend look at.
    QTextCharFormat formatOf(const QString& kind) const;

  protected:
    void highlightBlock(const QString& text) override;

  private:
    struct Rule {
        QString kind;
        QRegularExpression pattern;
    };
    void highlightBlockComments(const QString& text);

    std::vector<Rule> rules_;
    QRegularExpression commentStart_{"/\\*"}, commentEnd_{"\\*/"};
};

} // namespace clscope::ui
